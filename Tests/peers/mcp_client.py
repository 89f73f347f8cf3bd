"""The official Python MCP SDK as the client of `assistantctl mcp` over stdio.

    mcp_client.py ASSISTANTCTL SOCKET [--allow-destructive]
    mcp_client.py ASSISTANTCTL SOCKET --session ICS_FILE BIG_ICS_FILE
    mcp_client.py ASSISTANTCTL SOCKET --plan PLAN_JSON

The second form checks the rest of a session: progress and cancellation on imports, the
resources, a subscription, the prompts and notices as log messages. The third makes the calls
of a plan under a client of a chosen kind (roots, and whether its person confirms).

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


async def session_checks(ctl, socket, ics, big_ics):
    """Progress on an import, a cancelled import, resources, a subscription, prompts, logging."""
    import datetime

    import anyio
    import mcp.types as types

    params = StdioServerParameters(command=ctl, args=["mcp"], env=dict(os.environ, ASSISTANT_SOCKET=socket))
    out = {}
    logs = []
    updated = []
    got_log = anyio.Event()
    got_update = anyio.Event()

    async def on_log(params):
        logs.append({"level": params.level, "logger": params.logger, "data": params.data})
        got_log.set()

    async def on_message(message):
        if isinstance(message, types.ServerNotification) and isinstance(message.root, types.ResourceUpdatedNotification):
            updated.append(str(message.root.params.uri))
            got_update.set()

    async with stdio_client(params) as (read, write):
        async def on_roots(context):
            from pydantic import FileUrl
            return types.ListRootsResult(roots=[types.Root(uri=FileUrl("file://" + os.path.dirname(ics)))])

        async with ClientSession(read, write, logging_callback=on_log, message_handler=on_message, list_roots_callback=on_roots) as session:
            await session.initialize()
            await session.set_logging_level("info")

            # Progress: the daemon's reports on an import reach the client as notifications/progress.
            progress = []

            async def on_progress(done, total, message):
                progress.append({"progress": done, "total": total, "message": message})

            result = await session.call_tool("tasks.import.ics", {"path": ics, "dry_run": True}, progress_callback=on_progress)
            out["import"] = {"isError": bool(result.isError), "structured": result.structuredContent, "progress": progress}

            # Cancellation: a long import cancelled at its first progress report; the daemon's
            # calls in flight then empty, and nothing was added.
            first_report = anyio.Event()

            async def on_big_progress(done, total, message):
                first_report.set()

            cancelled = {"reported": False}
            async with anyio.create_task_group() as group:
                async def big_import():
                    # The id the SDK gives this request (its ids count up): the Python SDK does not
                    # tell the server when a call is cancelled, so the client says so itself.
                    cancelled["id"] = session._request_id
                    try:
                        await session.call_tool("tasks.import.ics", {"path": big_ics}, progress_callback=on_big_progress)
                        cancelled["finished"] = True
                    except anyio.get_cancelled_exc_class():
                        cancelled["cancelled"] = True
                        raise
                group.start_soon(big_import)
                with anyio.fail_after(60):
                    await first_report.wait()
                cancelled["reported"] = True
                await session.send_notification(types.ClientNotification(types.CancelledNotification(
                    params=types.CancelledNotificationParams(requestId=cancelled["id"], reason="the test cancels it"))))
                group.cancel_scope.cancel()
            in_flight = None
            with anyio.fail_after(60):
                while True:
                    status = await session.call_tool("status", {})
                    in_flight = status.structuredContent["calls_in_flight"]["total"]
                    # Only this status call itself may be in flight.
                    if in_flight <= 1:
                        break
                    await anyio.sleep(0.05)
            listed = await session.call_tool("tasks.list", {"when": "all"})
            cancelled["in_flight"] = in_flight
            cancelled["tasks_after"] = listed.structuredContent["count"]
            out["cancel"] = cancelled

            # Resources, a template, a read, the prompts.
            resources = (await session.list_resources()).resources
            out["resources"] = sorted(str(r.uri) for r in resources)
            templates = (await session.list_resource_templates()).resourceTemplates
            out["templates"] = sorted(t.uriTemplate for t in templates)
            today = await session.read_resource("assistant://tasks/agenda/today")
            out["today"] = json.loads(today.contents[0].text)
            out["today_mime"] = today.contents[0].mimeType
            try:
                await session.read_resource("assistant://nothing/here")
                out["unknown_resource"] = "answered"
            except Exception as error:
                out["unknown_resource"] = str(error)
            prompts = (await session.list_prompts()).prompts
            out["prompts"] = sorted(p.name for p in prompts)
            briefing = await session.get_prompt("daily_briefing")
            out["briefing"] = [m.content.type if m.content.type != "resource" else str(m.content.resource.uri) for m in briefing.messages]

            # A subscription and notices as log messages: a reminder due in two seconds.
            await session.subscribe_resource("assistant://tasks/agenda/today")
            at = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=2)).strftime("%Y-%m-%dT%H:%M:%SZ")
            due = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
            added = await session.call_tool("tasks.add", {"title": "Check the print", "due": due, "reminders": [{"at": at}]})
            out["reminder_added"] = not added.isError
            with anyio.fail_after(60):
                await got_log.wait()
                await got_update.wait()
            out["logs"] = logs
            out["updated"] = updated
    print(json.dumps(out, ensure_ascii=False))


async def printer_checks(ctl, socket, printer):
    """A printer's resources: its status as JSON, its webcam snapshot as a JPEG blob."""
    import base64

    params = StdioServerParameters(command=ctl, args=["mcp"], env=dict(os.environ, ASSISTANT_SOCKET=socket))
    out = {}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            templates = (await session.list_resource_templates()).resourceTemplates
            out["templates"] = sorted(t.uriTemplate for t in templates)
            status = await session.read_resource("assistant://octoprint/%s/status" % printer)
            out["status_mime"] = status.contents[0].mimeType
            out["status"] = json.loads(status.contents[0].text)
            webcam = await session.read_resource("assistant://octoprint/%s/webcam" % printer)
            jpeg = base64.b64decode(webcam.contents[0].blob)
            out["webcam_mime"] = webcam.contents[0].mimeType
            out["webcam_is_jpeg"] = jpeg[:2] == b"\xff\xd8" and jpeg[-2:] == b"\xff\xd9"
            try:
                await session.read_resource("assistant://octoprint/nosuch/status")
                out["unknown_printer"] = "answered"
            except Exception as error:
                out["unknown_printer"] = str(error)
    print(json.dumps(out, ensure_ascii=False))


async def plan_checks(ctl, socket, plan_file):
    """Calls from a plan, as a model steered by hostile text would make them, under a client of
    a chosen kind: its roots (none: it declares no roots capability) and what its person answers
    when asked to confirm ("none": it cannot be asked; "accept"; "decline"). Prints each call's
    answer and every question the person was asked."""
    import mcp.types as types
    from pydantic import FileUrl

    with open(plan_file) as f:
        plan = json.load(f)
    asked = []

    async def on_elicit(context, params):
        asked.append(params.message)
        return types.ElicitResult(action=plan["elicit"], content={} if plan["elicit"] == "accept" else None)

    async def on_roots(context):
        return types.ListRootsResult(roots=[types.Root(uri=FileUrl("file://" + root), name="test") for root in plan["roots"]])

    options = {}
    if plan["elicit"] != "none":
        options["elicitation_callback"] = on_elicit
    if plan.get("roots") is not None:
        options["list_roots_callback"] = on_roots
    params = StdioServerParameters(command=ctl, args=["mcp"], env=dict(os.environ, ASSISTANT_SOCKET=socket))
    out = {"calls": [], "asked": asked}
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write, **options) as session:
            await session.initialize()
            tools = (await session.list_tools()).tools
            out["tools"] = {t.name: {"destructive": t.annotations.destructiveHint if t.annotations else None} for t in tools}
            for call in plan["calls"]:
                try:
                    result = await session.call_tool(call["name"], call["arguments"])
                    text = result.content[0].text if result.content else None
                    out["calls"].append({"name": call["name"], "isError": bool(result.isError), "text": text,
                                         "structured": result.structuredContent})
                except Exception as error:
                    out["calls"].append({"name": call["name"], "isError": True, "text": type(error).__name__ + ": " + str(error),
                                         "protocol": True})
    print(json.dumps(out, ensure_ascii=False))


async def main():
    ctl, socket = sys.argv[1], sys.argv[2]
    if "--plan" in sys.argv:
        await plan_checks(ctl, socket, sys.argv[sys.argv.index("--plan") + 1])
        return
    if "--printer" in sys.argv:
        await printer_checks(ctl, socket, sys.argv[sys.argv.index("--printer") + 1])
        return
    if "--session" in sys.argv:
        index = sys.argv.index("--session")
        await session_checks(ctl, socket, sys.argv[index + 1], sys.argv[index + 2])
        return
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
            # One command of every other plugin, its structured content held to its output schema.
            for name in ("stag.status", "kos.status", "logbook.totals", "octoprint.printers.list", "today"):
                calls[name] = await call(name, {})
            calls["missing"] = await call("tasks.add", {})
            calls["wrong_type"] = await call("tasks.list", {"limit": "many"})
            calls["unknown_argument"] = await call("tasks.list", {"bogus": 1})
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
