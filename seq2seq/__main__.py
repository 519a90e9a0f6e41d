"""`python -m seq2seq COMMAND`: the commands are in seq2seq/commands/cli.py."""

import sys

from seq2seq.commands.cli import main

sys.exit(main())
