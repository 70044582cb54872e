"""Rule primitives, one module each, selected by the parameters of a rule system.

Each primitive is written once against :class:`verifier.core.logic.Logic`: the explorer runs it on
plain values (its concrete step) and the SMT engine runs the same code on z3 terms (its
symbolic encoding). Guards are sequences of :class:`~verifier.rules.context.Check`, each named
after the rule it enforces, so that both engines can say which rule forbids an action.

- ``speed``: Spell Speed eligibility, speeds of links, speed modifiers.
- ``protocol``: who may act, passes and resolve presses, when a chain closes.
- ``resolution``: which link resolves next (backwards; keyed sort).
- ``triggers``: trigger events, SEGOC / APNAP ordering, missing the timing.
- ``windows``: the Summon negation and Summon response windows.
- ``cleanup``: what happens after the last link.
"""
