"""`python -m attention.check EXERCISE PATH`: check a coursework solution file."""

import sys

from attention.check import EXERCISES
from minigrad.check.checker import main

if __name__ == "__main__":
    sys.exit(main(EXERCISES, "python -m attention.check"))
