"""The official MCP Python SDK drives `oubli mcp` end to end, over stdio and over streamable
HTTP: list the tools, remember -> recall -> purge, then verify the purge receipt offline with
`oubli-audit verify`. Run by .ci/run; needs OUBLI_BIN and OUBLI_AUDIT_BIN (built binaries)."""

import asyncio
import json
import os
import subprocess
import tempfile

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

try:  # mcp >= 2
    from mcp.client.streamable_http import streamable_http_client as _http_client
except ImportError:  # mcp 1.x names it streamablehttp_client and yields a third value
    from mcp.client.streamable_http import streamablehttp_client as _http_client


def _structured(result):
    assert not result.is_error, result.content
    if result.structured_content is not None:
        return result.structured_content
    return json.loads(result.content[0].text)


async def _stdio_flow(store: str, workdir: str) -> None:
    params = StdioServerParameters(command=os.environ["OUBLI_BIN"], args=["mcp", store])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await _session_flow(session, workdir)


async def _http_flow(url: str, workdir: str) -> None:
    async with _http_client(url) as streams:
        async with ClientSession(streams[0], streams[1]) as session:
            await _session_flow(session, workdir)


async def _session_flow(session: ClientSession, workdir: str) -> None:
    await session.initialize()
    names = {t.name for t in (await session.list_tools()).tools}
    assert {"remember", "recall", "supersede", "release", "purge", "plan", "history"} <= names

    r = _structured(await session.call_tool(
        "remember", {"text": "Maria Keller's e-mail is maria.keller@example.com", "user_id": "maria"}))
    assert r["namespace"] == "user:maria"
    _structured(await session.call_tool(
        "remember", {"text": "Tomas prefers window seats", "user_id": "tomas"}))

    hits = _structured(await session.call_tool(
        "recall", {"query": "Maria's e-mail", "user_id": "maria"}))["memories"]
    assert any("maria.keller@example.com" in h["text"] for h in hits)

    # A request about someone who is not in the store changes nothing.
    missing = await session.call_tool(
        "purge", {"target": {"query": "Priya's phone number"}, "user_id": "maria"})
    assert missing.is_error

    p = _structured(await session.call_tool(
        "purge", {"target": {"query": "Maria Keller's e-mail"}, "user_id": "maria"}))
    assert p["erased"], p
    hits = _structured(await session.call_tool(
        "recall", {"query": "Maria's e-mail", "user_id": "maria"}))["memories"]
    assert not any("maria.keller" in h["text"] for h in hits)
    others = _structured(await session.call_tool(
        "recall", {"query": "window seats", "user_id": "tomas"}))["memories"]
    assert any("window seats" in h["text"] for h in others)

    receipt = os.path.join(workdir, "receipt.json")
    with open(receipt, "w", encoding="utf-8") as f:
        f.write(p["receipt"])
    out = subprocess.run(
        [os.environ["OUBLI_AUDIT_BIN"], "verify", receipt, "--pubkey", p["public_key"]],
        capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_remember_recall_purge_verify_receipt():
    with tempfile.TemporaryDirectory() as d:
        asyncio.run(_stdio_flow(os.path.join(d, "mcp.oubli"), d))


def test_the_same_flow_over_streamable_http():
    with tempfile.TemporaryDirectory() as d:
        server = subprocess.Popen(
            [os.environ["OUBLI_BIN"], "mcp", os.path.join(d, "http.oubli"), "--http", "127.0.0.1:0"],
            stderr=subprocess.PIPE, text=True)
        try:
            line = server.stderr.readline()
            assert line.startswith("listening on "), line
            asyncio.run(_http_flow(line.split()[-1], d))
        finally:
            server.terminate()
            assert server.wait(timeout=30) == 0


async def _floor_flow(store: str) -> None:
    params = StdioServerParameters(
        command=os.environ["OUBLI_BIN"], args=["mcp", store, "--min-confidence", "high"])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            _structured(await session.call_tool(
                "remember", {"text": "Tom Hale's phone number is +44 7700 900123.", "user_id": "tom"}))
            # Every word of the request in the row: graded high, acted on.
            full = _structured(await session.call_tool(
                "plan", {"operation": "purge", "target": {"query": "Tom Hale's phone number"}, "user_id": "tom"}))
            assert full["rows"] and full["plan"]["confidence"] == "high", full
            # One word the row lacks: medium, below the server's floor, so a no-match.
            partial = _structured(await session.call_tool(
                "plan", {"operation": "purge", "target": {"query": "Tom Hale's work phone number"}, "user_id": "tom"}))
            assert partial["rows"] == [], partial
            refused = await session.call_tool(
                "purge", {"target": {"query": "Tom Hale's work phone number"}, "user_id": "tom"})
            assert refused.is_error
            assert refused.content[0].text.startswith("no_match"), refused.content


def test_a_confidence_floor_refuses_weaker_matches():
    with tempfile.TemporaryDirectory() as d:
        asyncio.run(_floor_flow(os.path.join(d, "floor.oubli")))
