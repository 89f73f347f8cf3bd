"""The official Python MCP SDK as the client of `assistantctl mcp` over stdio.

    mcp_client.py ASSISTANTCTL SOCKET [--allow-destructive]

Runs the handshake, lists the tools, checks every input and output schema with jsonschema
(Draft 2020-12), calls a few tools, and prints one JSON object with what it saw, for the Swift
test to hold to its expectations.
"""
import asyncio
import json
import os
import sys

import jsonschema
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


async def main():
    ctl, socket = sys.argv[1], sys.argv[2]
    args = ["mcp"] + (["--allow-destructive"] if "--allow-destructive" in sys.argv else [])
    params = StdioServerParameters(command=ctl, args=args, env=dict(os.environ, ASSISTANT_SOCKET=socket))
    out = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            init = await session.initialize()
            out["server"] = {"name": init.serverInfo.name, "version": init.serverInfo.version,
                             "protocol": init.protocolVersion, "instructions": init.instructions}
            tools = (await session.list_tools()).tools
            out["tools"] = {t.name: {"readOnly": t.annotations.readOnlyHint if t.annotations else None,
                                     "destructive": t.annotations.destructiveHint if t.annotations else None,
                                     "openWorld": t.annotations.openWorldHint if t.annotations else None,
                                     "required": t.inputSchema.get("required", []),
                                     "additionalProperties": t.inputSchema.get("additionalProperties")}
                            for t in tools}
            bad_schemas = []
            for t in tools:
                for kind, schema in (("input", t.inputSchema), ("output", t.outputSchema)):
                    try:
                        jsonschema.Draft202012Validator.check_schema(schema or {})
                    except jsonschema.SchemaError as error:
                        bad_schemas.append("%s %s: %s" % (t.name, kind, error.message))
            out["bad_schemas"] = bad_schemas
            by_name = {t.name: t for t in tools}

            async def call(name, arguments):
                result = await session.call_tool(name, arguments)
                structured = result.structuredContent
                text = result.content[0].text if result.content else None
                valid = None
                if not result.isError and name in by_name and by_name[name].outputSchema:
                    try:
                        jsonschema.validate(structured, by_name[name].outputSchema, cls=jsonschema.Draft202012Validator)
                        valid = True
                    except jsonschema.ValidationError as error:
                        valid = error.message
                return {"isError": bool(result.isError), "structured": structured, "text": text, "valid": valid}

            calls = {}
            calls["ping"] = await call("ping", {})
            calls["add"] = await call("tasks.add", {"title": "Buy filament", "due": "2030-01-01 10:00"})
            calls["list"] = await call("tasks.list", {"when": "all"})
            calls["missing"] = await call("tasks.add", {})
            calls["wrong_type"] = await call("tasks.list", {"limit": "many"})
            calls["delete"] = await call("tasks.delete", {"id": "nothing"})
            calls["vault"] = await call("vault.list", {})
            try:
                await session.call_tool("no.such.tool", {})
                calls["unknown"] = "answered"
            except Exception as error:  # the SDK raises McpError for a protocol error
                calls["unknown"] = type(error).__name__ + ": " + str(error)
            try:
                await session.call_tool("tasks.add", {"title": "x" * (10 * 1024 * 1024)})
                calls["huge"] = "answered"
            except Exception as error:
                calls["huge"] = type(error).__name__ + ": " + str(error)
            calls["after_huge"] = await call("ping", {})
            out["calls"] = calls
    print(json.dumps(out, ensure_ascii=False))


asyncio.run(main())
