"""`python -m attention.grade EXERCISE PATH`: grade a coursework solution file."""

import sys

from minigrad.grade.grader import main
from attention.grade import EXERCISES

if __name__ == "__main__":
    sys.exit(main(EXERCISES, "python -m attention.grade"))
