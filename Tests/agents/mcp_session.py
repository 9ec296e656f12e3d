"""An agent's session with `shoebox mcp`, driven by the official MCP Python SDK (mcp 2.3.0, in the venv `make test`
builds: .build/mcp-venv). The client connects as any agent would (Client over stdio, mode "auto": it probes
server/discover, then falls back to the initialize handshake), lists the tools, reads the manifest, files three
documents (fields that agree with the page, a total that does not, a document whose page says little), checks that
hostile calls are JSON-RPC errors and the server keeps serving, then runs `shoebox inbox` and reads each document's
status and the review list. Malformed JSON-RPC (not JSON, a batch, a line over 4 MiB, no method) is sent raw.

Usage: .build/mcp-venv/bin/python Tests/agents/mcp_session.py [path/to/shoebox]   (default .build/debug/shoebox)
"""
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile

from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHOEBOX = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build/debug/shoebox"))
SAMPLE = os.path.join(ROOT, "Fixtures/sample-scans")
FAILURES = []


def check(condition, what):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        FAILURES.append(what)


def structured(result):
    """A tool result's JSON: its structured content, else its text."""
    if result.structured_content is not None:
        return result.structured_content
    return json.loads(result.content[0].text)


async def expect_error(client, name, arguments, what, contains=""):
    try:
        result = await client.call_tool(name, arguments)
    except MCPError as e:
        check(contains in str(e), f"{what}: a JSON-RPC error ({str(e)[:90]})")
        return
    check(False, f"{what}: a JSON-RPC error, got a result ({str(result)[:90]})")


async def handshake(work, out, allow):
    """A client that speaks only the initialize handshake (mode "legacy"): the newest revision it offers is answered."""
    params = StdioServerParameters(command=SHOEBOX, args=["mcp", "--out", out, "--allow", allow], cwd=work)
    async with Client(params, mode="legacy") as client:
        check(client.protocol_version == "2025-11-25", f"the handshake settles on {client.protocol_version}")
        names = sorted(t.name for t in (await client.list_tools()).tools)
        check(len(names) == 4, "the tools are listed after the handshake too")
        manifest = structured(await client.call_tool("read_manifest", {}))
        check(manifest["manifestVersion"] == 2, "read_manifest answers after the handshake")


async def session(work, out, allow):
    params = StdioServerParameters(
        command=SHOEBOX, args=["mcp", "--out", out, "--allow", allow, "--today", "2026-12-07"], cwd=work)
    async with Client(params) as client:
        # As an agent's client connects by default: server/discover, then each request naming the revision.
        check(client.protocol_version == "2026-07-28", f"the client settles on the newest revision ({client.protocol_version})")
        tools = await client.list_tools()
        names = sorted(t.name for t in tools.tools)
        check(names == ["document_status", "file_document", "list_review", "read_manifest"], f"tools listed: {names}")
        for t in tools.tools:
            check(t.input_schema.get("type") == "object", f"{t.name} has an object input schema")

        manifest = structured(await client.call_tool("read_manifest", {}))
        check(manifest["manifestVersion"] == 2, "manifest version 2")
        check(manifest["inbox"] == os.path.join(out, "inbox"), f"manifest names the inbox ({manifest['inbox']})")
        check([f["name"] for f in manifest["folders"]] == ["office-supplies"], "manifest lists the folder the store knows")
        check(any(f["name"] == "agent" for f in manifest["sidecar"]["fields"]), "the sidecar's fields include agent")

        # A copy a killed server left half-written (its process gone): removed by the next filing into the folder.
        os.makedirs(os.path.join(out, "inbox/office-supplies"), exist_ok=True)
        abandoned = os.path.join(out, "inbox/office-supplies/.shoebox-copy-3999999-IMG_0001.jpg.tmp")
        with open(abandoned, "wb") as f:
            f.write(b"half a copy")
        filed = {}
        docs = [
            ("IMG_0412.jpg", {"merchant": "Currywurst am Tor GmbH", "date": "2026-03-15", "total": "16.60", "currency": "EUR"}, True),
            ("IMG_0433.jpg", {"total": "99.99"}, False),
            ("IMG_0427.png", {"note": "team lunch", "category": "meals"}, True),
        ]
        for name, fields, confirmed in docs:
            r = structured(await client.call_tool("file_document", {
                "path": name, "folder": "office-supplies", "agent": "SDK test agent", "confirmedByPerson": confirmed,
                "fields": fields}))
            check(r["status"] == "waiting" and r["dropped"] == f"office-supplies/{name}", f"filed {name}: {r['dropped']} waiting")
            filed[name] = r["dropped"]
            status = structured(await client.call_tool("document_status", {"dropped": r["dropped"]}))
            check(status["status"] == "waiting", f"{name} waits until a run takes it")
        check(os.path.exists(os.path.join(out, "inbox/office-supplies/IMG_0412.jpg.json")), "the sidecar is beside the document in the inbox")
        check(not os.path.exists(abandoned), "a copy a killed server left is gone")
        with open(os.path.join(out, "inbox/office-supplies/IMG_0412.jpg.json")) as f:
            sidecar = json.load(f)
        check(sidecar["agent"] == "SDK test agent" and sidecar["confirmedByPerson"] is True, "the sidecar names the agent and the confirmation")

        # Hostile calls: each a JSON-RPC error, and the server still answers after them.
        await expect_error(client, "file_document", {"path": "/etc/passwd", "folder": "x", "agent": "a"}, "a path outside the allowed folder", "outside")
        await expect_error(client, "file_document", {"path": "../outside.jpg", "folder": "x", "agent": "a"}, "a path with ..", "..")
        await expect_error(client, "file_document", {"path": "link.jpg", "folder": "x", "agent": "a"}, "a link", "not a regular file")
        await expect_error(client, "file_document", {"path": "IMG_0412.jpg", "folder": "../etc", "agent": "a"}, "a folder that is a path")
        await expect_error(client, "file_document", {"path": "IMG_0412.jpg", "folder": "processed", "agent": "a"}, "the inbox's own folder")
        await expect_error(client, "file_document", {"path": "IMG_0412.jpg", "folder": "x", "agent": "a", "fields": {"total": "x" * (3 << 20)}},
                           "a 3 MiB argument")
        await expect_error(client, "file_document", {"path": "IMG_0412.jpg", "folder": "x", "agent": "a", "fields": {"date": "31.02.2026"}},
                           "a date that is no day", "date")
        await expect_error(client, "file_document", {"path": "IMG_0412.jpg", "folder": "x", "agent": "a", "fields": {"amount": "1"}},
                           "a field a sidecar does not carry", "amount")
        await expect_error(client, "file_document", {"path": "IMG_0412.jpg", "folder": "x"}, "no agent named", "agent")
        await expect_error(client, "delete_record", {"record": "x"}, "a tool that does not exist", "no tool")
        await expect_error(client, "document_status", {"dropped": "../../etc/passwd"}, "a status of a path outside")
        check(not os.path.exists(os.path.join(out, "inbox/x")) or os.listdir(os.path.join(out, "inbox/x")) == [],
              "nothing was filed by a refused call")
        again = structured(await client.call_tool("read_manifest", {}))
        check(again["manifestVersion"] == 2, "the server still answers after the hostile calls")

        run = subprocess.run([SHOEBOX, "inbox", "--out", out, "--today", "2026-12-07"], capture_output=True, text=True)
        print(run.stdout)
        check(run.returncode == 0, f"shoebox inbox took the three (exit {run.returncode}: {run.stderr[-300:]})")

        statuses = {}
        for name, dropped in filed.items():
            s = structured(await client.call_tool("document_status", {"dropped": dropped}))
            statuses[name] = s
            check(s["record"] == dropped and s["agent"] == "SDK test agent", f"{name}: record {s.get('record')}, status {s['status']}")
        check(statuses["IMG_0412.jpg"]["status"] == "accepted", "fields the page agrees with: accepted")
        check(statuses["IMG_0433.jpg"]["status"] == "review" and "sources-disagree" in statuses["IMG_0433.jpg"]["reasons"],
              "a total the page contradicts: review, sources-disagree")
        review = structured(await client.call_tool("list_review", {"folder": "office-supplies"}))
        waiting = {r["record"]: r for r in review["records"]}
        check(filed["IMG_0433.jpg"] in waiting and waiting[filed["IMG_0433.jpg"]]["enteredBy"] == "agent",
              "list_review shows the disagreeing one, entered by the agent")
        await expect_error(client, "list_review", {"limit": 100000}, "a limit over 500", "limit")

    with open(os.path.join(out, "records.jsonl")) as f:
        records = {r["source"]: r for r in map(json.loads, f)}
    r = records[filed["IMG_0412.jpg"]]
    check(r["enteredBy"] == "agent" and r["agent"] == "SDK test agent" and r["confirmedByPerson"] is True,
          "the record says it was entered by the agent")
    check(json.loads(r["agentSidecar"])["agent"] == "SDK test agent", "the sidecar is kept verbatim with the record")
    check("agent" in r["evidence"]["total"]["confirmedBy"], "the agent's total confirms the page's")
    alternates = [a for a in records[filed["IMG_0433.jpg"]]["alternates"].get("total", []) if a["source"] == "agent"]
    check(alternates and alternates[0]["value"] == "99.99", "the disagreeing total is kept beside the page's, as the agent's")


def raw(out, allow):
    """Malformed JSON-RPC sent as bytes: each answered with an error, and a ping after them answered."""
    lines = [b"this is not json", b'[{"jsonrpc": "2.0", "id": 1, "method": "ping"}]', b'{"jsonrpc": "2.0", "id": 2}',
             b'{"jsonrpc": "1.0", "id": 3, "method": "ping"}', b'{"jsonrpc": "2.0", "id": 4, "method": "no/such"}',
             b'{"jsonrpc": "2.0", "id": {"x": 1}, "method": "ping"}', b'{"jsonrpc": "2.0", "id": true, "method": "ping"}', b'{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": 7}',
             b'{"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "file_document", "arguments": []}}',
             b'{"x": "' + b"y" * (5 << 20) + b'"}',
             b'{"jsonrpc": "2.0", "id": 7, "method": "ping", "params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "1999-01-01"}}}',
             b'{"jsonrpc": "2.0", "id": 99, "method": "ping"}']
    p = subprocess.run([SHOEBOX, "mcp", "--out", out, "--allow", allow], input=b"\n".join(lines) + b"\n", capture_output=True, timeout=60)
    replies = [json.loads(line) for line in p.stdout.splitlines()]
    codes = [r.get("error", {}).get("code") for r in replies]
    check(p.returncode == 0, f"the server ends cleanly at the end of its input (exit {p.returncode})")
    check(codes == [-32700, -32600, -32600, -32600, -32601, -32600, -32600, -32602, -32602, -32600, -32022, None], f"error codes in order: {codes}")
    check("2026-07-28" in replies[-2]["error"].get("data", {}).get("supported", []), "a revision it does not speak is named with those it does")
    check(replies[-1] == {"jsonrpc": "2.0", "id": 99, "result": {}}, "a ping after them is answered (an empty result, as its revision has it)")


def main():
    work = tempfile.mkdtemp(prefix="shoebox-mcp-")
    try:
        scans, out, allow = (os.path.join(work, d) for d in ("scans", "out", "allow"))
        os.makedirs(os.path.join(scans, "office-supplies"))
        os.makedirs(allow)
        shutil.copy(os.path.join(SAMPLE, "office-supplies/scan_0007.png"), os.path.join(scans, "office-supplies"))
        for name in ("IMG_0412.jpg", "IMG_0433.jpg", "IMG_0427.png"):
            shutil.copy(os.path.join(SAMPLE, "2026-03-berlin-trip", name), allow)
        shutil.copy(os.path.join(SAMPLE, "2026-03-berlin-trip/IMG_0412.jpg"), os.path.join(work, "outside.jpg"))
        os.symlink(os.path.join(work, "outside.jpg"), os.path.join(allow, "link.jpg"))
        run = subprocess.run([SHOEBOX, "run", scans, "--out", out, "--today", "2026-12-07"], capture_output=True, text=True)
        check(run.returncode == 0, f"a store to start from (exit {run.returncode})")
        asyncio.run(session(work, out, allow))
        asyncio.run(handshake(work, out, allow))
        raw(out, allow)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if FAILURES:
        print(f"{len(FAILURES)} failed")
        sys.exit(1)
    print("mcp session: all passed")


if __name__ == "__main__":
    main()
