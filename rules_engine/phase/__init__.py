"""The between-scenario phase as a checklist (RR 2.5 RePh, PL 2.0/3.0 RePh, PHD C5 ConPh), driven by ``system.steps``.

How the step list becomes a checklist (all from the data; no system is named here):

* **Parts.** A step's ``params.part`` says whether it follows the scenario just played (``post-scenario``) or starts the
  next date (``new-date``; PHD writes ``new-scenario``); a step without it takes the part of the step before it. The
  date advances on entering the new-date part (RR 2.5121, PL 2.1, PHD "NEW TM DATE"). A system that declares no part
  has one part: the whole list starts each new date.
* **Initiative.** The first step with action ``initiative``/``resolve-initiative`` (RR 2.522, PL 2.41, PHD C5.37);
  the new-date steps after it prepare the scenario (RR 2.523–2.525, PL 2.5–2.9, PHD C5.38–C5.41).
* **Passes.** ``initial``: the steps flagged ``initial``/``initial_only`` then the Initial Scenario (RR ††: 2.518–2.520;
  PL 2.2–2.9; PHD C5.12, C5.30–C5.35, C5.39, C5.41). ``cycle``: results entry, the post-scenario part, the new date,
  the new-date part up to the initiative. ``scenario``: the steps after the initiative, then the scenario.
  ``idle``: the system's idle loop (``steps-marked-loop``: the ``loop_on_idle`` steps of both parts, RR * steps, PHD
  Lull; ``listed-steps``: those steps, then the next date's new-date part, PL 3.41, 3.46, 3.461, 3.52 then 2.1).
  On the last date only the post-scenario steps marked "†" run when any is (RR: "the only steps needed for
  CG-Scenario End"); then the CG ends.
* **Kinds.** automatic (the engine resolves it in ``advance``), input (each side submits an order, possibly empty),
  assisted (rolls on the step's tables on request, then marked done), on-board (both mark done). ``sides: ordered``
  steps take the sides in their ``order`` (roles from the scenario just played or about to be played).
"""
