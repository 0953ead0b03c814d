"""Per-user scoping: the one rule mapping user_id / agent_id / run_id onto namespaces and
metadata (as the MCP server and forget_user do)."""

from __future__ import annotations

import pytest

import oubli_db as oubli


def test_the_user_rule_matches_the_mcp_server() -> None:
    assert oubli.user_namespace("ana") == "user:ana"
    assert oubli.user_namespace("a:b") == "user:a\\:b"
    s = oubli.Scope(user_id="ana", agent_id="planner", run_id="r1")
    assert s.namespace == "user:ana"
    assert s.inscribe_kwargs({"topic": "food"}) == {
        "namespace": "user:ana",
        "metadata": {"topic": "food", "agent_id": "planner", "run_id": "r1"},
    }
    assert s.recall_kwargs() == {"namespace": "user:ana", "filters": {"agent_id": "planner", "run_id": "r1"}}
    assert oubli.Scope(user_id="ana", namespace_override=("team", "x")).namespace == "team:x"
    assert oubli.Scope().namespace is None
    with pytest.raises(TypeError):
        oubli.user_namespace(7)  # type: ignore[arg-type]
