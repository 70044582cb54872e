"""The explored state graph as a networkx graph, written as DOT or GraphML."""

from __future__ import annotations

import io

import networkx as nx

from verifier.core.state import READ, Mode, State
from verifier.engines.explore import Exploration
from verifier.system import System
from verifier.trace.narrate import describe_action

__all__ = ["dot", "graph_bytes", "state_graph"]


def state_graph(system: System, exploration: Exploration) -> nx.MultiDiGraph[int]:
    """The explored state graph: nodes labelled by the chain so far, edges by the action."""
    graph: nx.MultiDiGraph[int] = nx.MultiDiGraph()
    ids: dict[State, int] = {}
    names = [c.name for c in system.world.cards]

    def node(state: State) -> int:
        if state not in ids:
            ids[state] = len(ids)
            chain = [names[c] for c in READ.lcard(state)[: READ.clen(state)]]
            mode = Mode(READ.mode(state)).name.lower()
            label = f"{mode}: " + (" > ".join(chain) if chain else "(no chain)")
            graph.add_node(ids[state], label=label, mode=mode, start=state == exploration.start)
        return ids[state]

    node(exploration.start)
    for source, target, action in exploration.edges or ():
        graph.add_edge(node(source), node(target), label=describe_action(system, source, action))
    return graph


def graph_bytes(graph: nx.MultiDiGraph[int], path: str) -> bytes:
    """The graph in the format the file name asks for: ``.graphml``, else DOT."""
    if path.endswith(".graphml"):
        buffer = io.BytesIO()
        nx.write_graphml(graph, buffer)
        return buffer.getvalue()
    return dot(graph).encode("utf-8")


def dot(graph: nx.MultiDiGraph[int]) -> str:
    """DOT without pydot: quoted labels, one line per node and edge."""

    def quote(text: object) -> str:
        return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"') + '"'

    lines = ["digraph chain {", "  node [shape=box, fontname=Helvetica];"]
    for node, data in graph.nodes(data=True):
        style = ", style=bold" if data.get("start") else ""
        lines.append(f"  n{node} [label={quote(data['label'])}{style}];")
    for source, target, data in graph.edges(data=True):
        lines.append(f"  n{source} -> n{target} [label={quote(data['label'])}];")
    lines.append("}")
    return "\n".join(lines) + "\n"
