"""Meta-evaluation from raw human judgments (Appraise ranking XML): human rankings (Expected
Wins, TrueSkill, rank clusters), system-level correlations with bootstrap intervals and paired
tests, sentence-level agreement, window analysis and plots.

Modules: ``judgments`` (reading), ``rankings``, ``correlation``, ``sentence``, ``windows``,
``plot`` (optional matplotlib), ``tables`` (text/JSON rendering for the CLI)."""
