"""Rule primitives, one module each, selected by the parameters of a rule system.

Each primitive is written once against :class:`verifier.core.logic.Logic`: the explorer runs it on
plain values (its concrete step) and the SMT engine runs the same code on z3 terms (its
symbolic encoding). Guards are sequences of :class:`~verifier.rules.context.Check`, each named
after the rule it enforces, so that both engines can say which rule forbids an action.

The modules, in their layers, highest first (a contract in ``pyproject.toml`` keeps them so,
and ``tests/test_import_cycles.py`` finds no import that goes back up, not even one deferred
into a function):

- ``activation``: whether a card or effect may be activated now, and what activating does
  (it registers the bundled kinds of condition); ``cleanup``: what happens after the last
  link.
- ``costs``: the kinds of cost, a registry; ``turn``: the turn's steps one after another, and
  the moves of a Main Phase; ``windows``: the Summon negation and response windows, the
  conditions that answer an activation or a summon, and closing an open game state.
- ``battle``: attacks, replays, the Damage Step; ``combat``: Magic's attackers and blockers.
- ``sba``: Magic's state-based actions.
- ``moves``: moving cards (one event, its triggers, the continuous effects it sets off);
  ``storm``: Magic's storm count.
- ``triggers``: trigger events, SEGOC / APNAP ordering, missing the timing, placing triggers;
  ``morph``: Magic's face-down creatures.
- ``protocol``: who may act, passes and resolve presses, when a chain closes; ``speed``:
  Spell Speed eligibility, speeds of links, speed modifiers; ``during``: conditions on the
  phase and the turn.
- ``timing``: where the game is (the step, the mode a chain ends in, the window open);
  ``events``: "when" conditions on the last event; ``resolution``: which link resolves next;
  ``locks``: continuous locks and protections; ``mana``, ``regeneration``, ``strike``:
  Magic's mana pools, regeneration shields and first strike.
- ``conditions``: the kinds of activation condition, a registry (each owner module defines
  its own).
- ``context``: what every primitive receives (logic, frame, world), the card queries, and the
  resets of the state fields each module declares.
- ``colors``: Magic's colours now; ``rulebook``: the rules by name, in words.
"""
