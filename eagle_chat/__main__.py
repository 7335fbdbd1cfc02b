import sys

from eagle_chat.cli import main

sys.exit(main())
