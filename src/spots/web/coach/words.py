"""The words of "How did it go?" on the end screen and in replays (the page scripts' part: ``static/coach.js``).

Listed here, marked with ``N_``, so the extraction finds them and ``words.js_words`` sends them to the page.
"""

from __future__ import annotations

from ...analysis.words import STOOD_IN
from ...i18n import N_

JS_WORDS = [
    N_("How did it go?"), N_("Analysing the game: step {done} of {total}."),
    N_("The analysis could not be made: {why}"), N_("Result"), N_("Luck"), N_("Equity lost"),
    N_("Per decision"), N_("Band"),
    N_("Luck and equity lost are points of chance to win (100 = a whole game); per decision: thousandths of a "
       "game lost per decision that was not forced."),
    N_("Chance to win over the game"), N_("The biggest mistakes of {name}:"), N_("Turn {turn}: {lost} points lost."),
    N_("Played: {move}"), N_("Better: {move}"), N_("See the position"),
    N_("No mistakes: every decision was the best, forced, or too close to the best to call a mistake."),
    N_("Mistake at step {step}"), STOOD_IN,
]
