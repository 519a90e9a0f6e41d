"""`python -m minigrad.grade EXERCISE PATH`: grade a coursework solution file."""

import sys

from minigrad.grade.exercises import EXERCISES
from minigrad.grade.grader import main

if __name__ == "__main__":
    sys.exit(main(EXERCISES, "python -m minigrad.grade"))
