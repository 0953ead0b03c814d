"""The official MCP Python SDK drives `oubli mcp` end to end over stdio:
list the tools, remember -> recall -> purge, then verify the purge receipt offline with
`oubli-audit verify`. Run by .ci/run; needs OUBLI_BIN and OUBLI_AUDIT_BIN (built binaries)."""

import asyncio
import json
import os
import subprocess
import tempfile

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client


def _structured(result):
    assert not result.is_error, result.content
    if result.structured_content is not None:
        return result.structured_content
    return json.loads(result.content[0].text)


async def _session_flow(store: str, workdir: str) -> None:
    params = StdioServerParameters(command=os.environ["OUBLI_BIN"], args=["mcp", store])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
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
        asyncio.run(_session_flow(os.path.join(d, "mcp.oubli"), d))
