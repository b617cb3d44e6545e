"""A raw streamable-HTTP client that calls a tool before its `initialized`
notification has been handled (the notification follows 0.2 s later, as a
racing client's would) and answers the escalation question it is asked.
Prints the tool's text. Usage: early_call.py <host> <port> <token>."""

import http.client
import json
import sys
import threading
import time

host, port, token = sys.argv[1], int(sys.argv[2]), sys.argv[3]
headers = {
    "Authorization": f"Bearer {token}",
    "Content-Type": "application/json",
    "Accept": "application/json, text/event-stream",
}


def post(body, extra=None):
    connection = http.client.HTTPConnection(host, port, timeout=30)
    connection.request("POST", "/mcp", json.dumps(body), {**headers, **(extra or {})})
    return connection.getresponse()


def events(response):
    while True:
        line = response.fp.readline()
        if not line:
            return
        line = line.strip()
        if line.startswith(b"data:") and line[5:].strip():
            yield json.loads(line[5:].strip())


initialize = post({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-11-25", "capabilities": {"elicitation": {"form": {}}},
    "clientInfo": {"name": "early", "version": "1"}}})
session = {"Mcp-Session-Id": initialize.getheader("mcp-session-id"),
           "Mcp-Protocol-Version": "2025-11-25"}
initialize.read()


def answer_questions():
    connection = http.client.HTTPConnection(host, port, timeout=30)
    connection.request("GET", "/mcp", headers={**headers, **session, "Accept": "text/event-stream"})
    for event in events(connection.getresponse()):
        if event.get("method") == "elicitation/create":
            post({"jsonrpc": "2.0", "id": event["id"],
                  "result": {"action": "accept", "content": {"allow": True}}}, session).read()


def late_initialized():
    time.sleep(0.2)
    post({"jsonrpc": "2.0", "method": "notifications/initialized"}, session).read()


threading.Thread(target=answer_questions, daemon=True).start()
threading.Thread(target=late_initialized, daemon=True).start()
call = post({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "shell", "arguments": {
    "command": "escalate --mode full --justification early -- touch /g; ls /"}}}, session)
for event in events(call):
    if event.get("method") == "elicitation/create":
        post({"jsonrpc": "2.0", "id": event["id"],
              "result": {"action": "accept", "content": {"allow": True}}}, session).read()
    elif event.get("id") == 2:
        print("".join(block.get("text", "") for block in event["result"]["content"]))
        break
