import sys

from seq2seq.commands.cli import main

sys.exit(main())
