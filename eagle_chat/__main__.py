import sys

from eagle_chat.cli import main

# Guarded: the engine host is a multiprocessing (spawn) child, which imports the parent's __main__ module
# under another name; an unguarded main() there would start a second app.
if __name__ == "__main__":
    sys.exit(main())
