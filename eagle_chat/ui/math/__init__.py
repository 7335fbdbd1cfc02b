"""LaTeX math in replies: found in Markdown (markdown_rules), typeset by ziamath (typesetting) into images
made off the GUI thread and cached (images), served to a text view's document (view_math)."""
