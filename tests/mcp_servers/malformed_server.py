"""A hand-written stdio MCP server whose tool answers with malformed content (a text item with no text,
an unknown shape): the SDK cannot be made to send that, so this one speaks JSON-RPC lines itself."""

import json
import sys

TOOL = {"name": "broken", "description": "Answers with malformed content.",
        "inputSchema": {"type": "object", "properties": {}}}

for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue
    method, result = message.get("method"), None
    if method == "initialize":
        result = {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}},
                  "serverInfo": {"name": "malformed", "version": "0"}}
    elif method == "tools/list":
        result = {"tools": [TOOL]}
    elif method == "tools/call":
        result = {"content": [{"type": "text"}, {"nonsense": 1}], "isError": "maybe"}
    else:
        print(json.dumps({"jsonrpc": "2.0", "id": message["id"],
                          "error": {"code": -32601, "message": "not here"}}), flush=True)
        continue
    print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}), flush=True)
