"""`python -m minigrad.check EXERCISE PATH`: check a coursework solution file."""

import sys

from minigrad.check import EXERCISES
from minigrad.check.checker import main

if __name__ == "__main__":
    sys.exit(main(EXERCISES, "python -m minigrad.check"))
