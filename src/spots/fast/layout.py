"""Where everything lives in the simulator's plain arrays (no Numba needed here).

A game is one ``int64`` array ``st`` of ``STATE_SIZE`` numbers; the rules, the deck and the
tile table are one ``int64`` array ``cfg``. Module-level integers are compile-time
constants for Numba, so the offsets below cost nothing at run time.

The state mirrors the reference engine's ``State`` (``spots/games/spots/state.py``) field by
field, so that ``view.to_dict`` can rebuild its JSON and the differential test can compare
the two after every move. Multisets of dice (a yard, a roll) are kept as counts per face:
the engine's lists are always sorted or only ever read as multisets.
"""

from __future__ import annotations

# ---------------------------------------------------------------- sizes
MAX_CARDS = 64  # a custom deck may have up to this many cards
MAX_TILES = 22
MAX_PLAYERS = 4
MAX_AGENDA = 96
MAX_MOVES = 2048  # Trot with a huge pack is the widest decision

# ---------------------------------------------------------------- phases (what the state waits for)
PH_NONE = 0
PH_CHANCE_ROLL = 1
PH_CHANCE_REVEAL = 2
PH_OVER = 3
PH_TURN = 4
PH_ROLL = 5
PH_CONTINUE = 6
PH_TROT = 7
PH_DIG = 8
PH_RETRIEVE = 9
PH_BOLT = 10
PH_TAKE = 11
PH_GUARD = 12
PHASE_NAMES = ("", "chance-roll", "chance-reveal", "over", "turn", "roll", "continue", "trot", "dig",
               "retrieve", "bolt", "take", "guard")

# ---------------------------------------------------------------- agenda tasks (code, argument)
T_DEAL = 1
T_TOP = 2
T_FIRST_DIE = 3
T_TIE = 4
T_ENDTURN = 5
T_DRAW = 6
T_STEP = 7
T_OFFER = 8
T_ROLL = 9
T_FAST = 10
T_BOLT_ROLL = 11
T_BOLT_NEXT = 12
T_DIG = 13
TASK_NAMES = ("", "deal", "top", "first-die", "tie", "endturn", "draw", "step", "offer", "roll", "fast",
              "bolt-roll", "bolt-next", "dig")
TASK_HAS_ARG = (False, True, False, True, False, False, True, True, True, True, False, False, False, False)

# what a pending chance event is for
CF_NONE = 0
CF_DEAL = 1
CF_TOP = 2
CF_FIRST_DIE = 3
CF_ROLL = 4

# the keep rules of a roll (Roll.mode / Roll.choosing); NOTHING: only reroll or stop remain
K_NONE = 0
K_FETCH = 1
K_GUARD = 2
K_HUNT = 3
K_SCAVENGE = 4
K_SEARCH = 5
K_NOTHING = 6
KEEP_NAMES = (None, "fetch", "guard", "hunt", "scavenge", "search", "nothing")

# what ``continue`` does
OF_NONE = 0
OF_ROLL = 1
OF_BOLT = 2

# ---------------------------------------------------------------- the state array
S_PHASE = 0
S_SEAT = 1
S_TURN = 2
S_DICE = 3  # dice in the supply
S_TREATS = 4  # treats in the supply
S_TOP = 5  # card index of the deck's top card, -1 for none
S_NREST = 6
S_FIRST = 7  # first player, -1 before the setup is over
S_TRICK = 8  # index into the rules' tricks of the trick in progress, -1 for none
S_STEP = 9
S_RIS = 10  # rolls in this step
S_SET_ASIDE = 11
S_TAKEN = 12
S_GUARD = 13  # 0 for none
S_DIGS = 14
S_OFFER = 15
S_OFFER_ARG = 16
S_WINNER = 17  # -1 for none
S_REASON = 18  # 0 none, 1 target, 2 turn limit
S_PENDING = 19  # dice of the pending roll
S_CF = 20
S_CF_SEAT = 21
S_NTIED = 22
S_TIED = 23  # 4 seats
S_NAGENDA = 27
S_AGENDA = 28  # MAX_AGENDA pairs (task, argument)
S_ROLL = S_AGENDA + 2 * MAX_AGENDA  # is a roll in hand (0/1)
S_R_SIZE = S_ROLL + 1
S_R_MODE = S_ROLL + 2
S_R_CHOOSING = S_ROLL + 3
S_R_FRESH = S_ROLL + 4
S_R_PARTIAL = S_ROLL + 5
S_R_BONUS = S_ROLL + 6  # 1: Play Dead pays the spots of a die buried without busting
S_R_DICE = S_ROLL + 7  # counts by face, index 1..6 (7 slots)
S_R_HELD = S_R_DICE + 7  # Track's dice kept aside, counts by face
S_FACE_UP = S_R_HELD + 7  # MAX_TILES
S_TILE_TREATS = S_FACE_UP + MAX_TILES
S_REST = S_TILE_TREATS + MAX_TILES  # the deck below the top card, in the engine's order
S_PLAYERS = S_REST + MAX_CARDS
# one player's block, from S_PLAYERS + seat * P_SIZE
P_TREATS = 0
P_BUSTS = 1
P_NDOGS = 2
P_YARD = 3  # counts by face, index 1..6 (7 slots)
P_DOGS = 10  # MAX_CARDS dogs of 3 numbers: card, filled faces as a bit mask (bit v), scored
P_SIZE = P_DOGS + 3 * MAX_CARDS
STATE_SIZE = S_PLAYERS + MAX_PLAYERS * P_SIZE

# ---------------------------------------------------------------- the cfg array (rules, deck, tiles)
C_PLAYERS = 0
C_NTRICKS = 1
C_TARGET = 2
C_DOG_LIMIT = 3
C_BUST = 4
C_DICE = 5
C_TREATS = 6
C_START_TREATS = 7
C_START_DOGS = 8
C_TURN_LIMIT = 9
C_NCARDS = 10
C_TRICKS = 16  # MAX_TILES tile ids (see tiles.TILE_IDS), in the rules' order
C_CARD_MASK = C_TRICKS + MAX_TILES  # MAX_CARDS space masks (bit v set for a space v)
C_CARD_PAWS = C_CARD_MASK + MAX_CARDS
C_CARD_SPACES = C_CARD_PAWS + MAX_CARDS  # number of spaces
C_STEPS = C_CARD_SPACES + MAX_CARDS  # MAX_TILES tiles x 2 steps x STEP_FIELDS, by tile id
STEP_FIELDS = 10
CFG_SIZE = C_STEPS + MAX_TILES * 2 * STEP_FIELDS

# fields of a step (see tiles.py)
F_KIND = 0
F_DICE = 1
F_SOURCE = 2
F_OPTIONAL = 3
F_REPEAT = 4
F_GROW = 5
F_KEEP = 6
F_PARTIAL = 7
F_BONUS = 8
F_TREATS = 9

# step kinds
SK_NONE = 0
SK_ROLL = 1
SK_DRAW = 2
SK_TREATS = 3
SK_TROT = 4
SK_DIG = 5
SK_RETRIEVE = 6
SK_BOLT = 7
SK_GUARD = 8
# special dice counts of a roll step
D_YARD = -1
D_SPRINT = -2
D_HUNT = -3
# roll sources
SRC_SUPPLY = 0
SRC_YARD = 1
SRC_DOGPILE = 2
# treat formulas
TF_BEG = 1
TF_CHEW = 2
TF_GOBBLE = 3
TF_STAY = 4

# ---------------------------------------------------------------- moves: kind | a << 8 | b << 16 | c << 24 | d << 32
M_SCORE = 1
M_TRICK = 2  # a: index into the rules' tricks
M_REROLL = 3  # a: 0 for every die, else the packed dice (Track)
M_PLACE = 4  # a: face, b: dog slot
M_BURY = 5  # a: face
M_CHOOSE = 6  # a: number
M_PICK = 7  # a: packed dice (multiset, 4 bits per face)
M_DISCARD = 8  # a: packed dice
M_SET_ASIDE = 9  # a: dice
M_DIG = 10  # a: seat, b: face, c: 1 up / 0 down
M_MOVE = 11  # a: from slot, b: face, c: to slot, d: face
M_TAKE_YARD = 12  # a: face
M_TAKE_DOG = 13  # a: slot, b: face
M_CONTINUE = 14
M_STOP = 15

# ---------------------------------------------------------------- policies
POLICY_RANDOM = 0
POLICY_GREEDY = 1
POLICIES = {"random": POLICY_RANDOM, "greedy": POLICY_GREEDY}
