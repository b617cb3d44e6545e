"""Drives `goccia mcp` with the official MCP Python SDK for cli/tests/e2e/mcp.rs.

Usage: client.py <json config>. The config names the server (`command` +
`args` for stdio, or `url` + `token` for streamable HTTP), the protocol era
(`mode`: "legacy", the initialize handshake, by default; "auto" or
"2026-07-28" for the revision without sessions, where the driver first calls
`open_sandbox` and names the handle in every call that does not name one),
the resources to read, the tool calls to make in order, and how to answer
elicitations. It prints one
JSON object: the negotiated protocol version, the tools as listed and every
call's result, for the Rust test to assert on. It asserts nothing itself.
"""

import asyncio
import json
import sys

import httpx2
from mcp import Client, types
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client


def result_json(result):
    return {
        "isError": bool(result.is_error),
        "text": "".join(block.text for block in result.content if block.type == "text"),
    }


async def run(config):
    answers = list(config.get("elicitation", []))
    questions = []

    async def on_elicit(context, params):
        questions.append(params.message)
        answer = answers.pop(0) if answers else "cancel"
        if answer == "allow":
            return types.ElicitResult(action="accept", content={"allow": True})
        if answer == "deny":
            return types.ElicitResult(action="accept", content={"allow": False})
        return types.ElicitResult(action=answer)

    callback = on_elicit if "elicitation" in config else None
    if "url" in config:
        http = httpx2.AsyncClient(headers={"Authorization": f"Bearer {config['token']}"})
        server = streamable_http_client(config["url"], http_client=http)
    else:
        server = StdioServerParameters(command=config["command"], args=config["args"])
    out = {"calls": []}
    mode = config.get("mode", "legacy")
    async with Client(server, elicitation_callback=callback, mode=mode) as client:
        out["protocolVersion"] = client.protocol_version
        handle = None
        if mode != "legacy":
            opened = await client.call_tool("open_sandbox", {})
            out["opened"] = result_json(opened)
            handle = json.loads(out["opened"]["text"]).get("sandbox") if not opened.is_error else None
        listed = await client.list_tools()
        out["tools"] = [
            {"name": tool.name, "description": tool.description, "inputSchema": tool.input_schema}
            for tool in listed.tools
        ]
        if "resources" in config:
            listed = await client.list_resources()
            out["resourceList"] = [str(resource.uri) for resource in listed.resources]
            out["resources"] = {}
            for uri in config["resources"]:
                try:
                    read = await client.read_resource(uri)
                    out["resources"][uri] = "".join(item.text for item in read.contents)
                except Exception as error:  # a protocol error: recorded
                    out["resources"][uri] = {"protocolError": str(error)}
        for name, arguments in config.get("calls", []):
            if handle is not None and "sandbox" not in arguments:
                arguments = {**arguments, "sandbox": handle}
            try:
                out["calls"].append(result_json(await client.call_tool(name, arguments)))
            except Exception as error:  # a protocol error: recorded, the session goes on
                out["calls"].append({"protocolError": str(error)})
    out["questions"] = questions
    return out


def main():
    config = json.loads(sys.argv[1])
    print(json.dumps(asyncio.run(run(config))))


if __name__ == "__main__":
    main()
