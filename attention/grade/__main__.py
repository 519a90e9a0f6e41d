"""`python -m attention.grade EXERCISE PATH`: grade a coursework solution file."""

import sys

from attention.grade import EXERCISES
from minigrad.grade.grader import main

if __name__ == "__main__":
    sys.exit(main(EXERCISES, "python -m attention.grade"))
