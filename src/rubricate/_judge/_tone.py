"""Criteria about tone alone: "The reply is polite", "warm, not stiff", "no sarcasm".

The embedded 1.5B judge hardly perceives tone: on the development files it passed 59% of the
tone criteria a reply fails ("Not our problem. Take it up with the courier." as polite), and
asking the opposite ("is it rude?") did not help. Its P(yes) still ranks polite replies above
rude ones (AUROC 0.80), so a criterion about tone alone gets its own bar, moved by the output's
likelihood under the criterion where the model can score it (`_likelihood`), else the fixed
`TONE_PASS_THRESHOLD`, and its verdict is marked `unsure`, as a form rule no check could read
is.

A criterion is about tone alone when each of its words describes a manner of writing, names
what is written or joins such words: a tone word ("curt", "condescending", "upbeat"), a noun of
tone ("sarcasm", "tone", "voice"), or the words around them ("the reply should sound", "in a
... way", "not", "but"). "Apologises and offers a refund in a friendly way" asks for content as
well, and "Kind regards" or "kid-friendly" are no tone: those stay at the usual bar.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ._compile._vocabulary import read

__all__ = ["about_tone"]

# Words that describe how a text treats its reader, in the forms people write them.
_TONE_WORDS = (
    "polite impolite rude courteous discourteous respectful disrespectful friendly unfriendly "
    "warm warmer cold frosty icy chilly professional unprofessional formal informal casual "
    "conversational chatty relaxed laid-back playful humorous funny witty light lighthearted "
    "light-hearted serious solemn cheerful upbeat jolly bubbly enthusiastic excited energetic "
    "encouraging discouraging supportive unsupportive empathetic empathic sympathetic "
    "unsympathetic compassionate caring kind unkind gentle soft reassuring calm calming soothing "
    "diplomatic tactful tactless blunt harsh curt terse brusque abrupt snappy sarcastic snarky "
    "condescending patronising patronizing dismissive defensive aggressive passive-aggressive "
    "hostile confrontational pushy bossy demanding apologetic confident assertive firm neutral "
    "objective impartial businesslike stiff stuffy robotic personal impersonal affectionate "
    "loving welcoming inviting approachable gushing effusive sincere genuine heartfelt "
    "judgmental judgemental nonjudgmental non-judgmental blaming accusatory accusing threatening "
    "scary preachy smug arrogant cocky rude snide mocking teasing respectful humble grateful "
    "thankful appreciative optimistic positive pessimistic gloomy somber sombre cheery sunny "
    "enthusiastically politely rudely warmly kindly respectfully professionally formally "
    "casually gently calmly firmly collegial gracious patient impatient honest sincerely "
    "inclusive alarmist resentful bitter unserious dry deadpan celebratory festive neighbourly "
    "neighborly constructive balanced flippant mean mean-spirited measured restrained "
    "over-the-top hype hype-y hyped fun lively direct elegant refined upscale slangy slang"
)
# Nouns of tone: "no sarcasm", "avoid condescension", "keep a friendly tone".
_TONE_NOUNS = (
    "tone tones voice register manner attitude demeanour demeanor politeness courtesy rudeness "
    "respect warmth empathy sympathy compassion kindness sarcasm snark condescension "
    "friendliness formality informality humour humor enthusiasm hostility aggression style"
)
# What joins, hedges or frames tone words without asking for anything else.
_FRAME = (
    "a an the it its it's this that these those reply replies response responses answer answers "
    "message messages paragraph paragraphs email emails e-mail letter letters note notes "
    "text texts post posts output "
    "writing wording language copy draft tweet comment comments feedback review chat "
    "is are be being been was were should must has have had stay stays keep keeps kept "
    "remain remains sound sounds sounding feel feels feeling read reads come comes across seem "
    "seems use uses using written write writes respond responds responded in on with to of for "
    "as way manner throughout overall always whole entire all at times every each user customer "
    "reader readers recipient person people them him her and but yet or nor while though also "
    "not no non never without avoid avoids avoiding do does did too overly very quite fairly "
    "rather bit little somewhat really extremely super clearly fully entirely "
    "please tone-wise and/or explanation explanations request reminder announcement apology "
    "brand like than rather even slightly"
)
_DESCRIBES = frozenset((_TONE_WORDS + " " + _TONE_NOUNS).split())
_ALLOWED = _DESCRIBES | frozenset(_FRAME.split())
_WORD = re.compile(r"[a-z]+(?:[-'][a-z]+)*")
# "Kind regards" and "warm regards" are a sign-off, "user-friendly" a quality of a product.
_PASSIVE_AGGRESSION = re.compile(r"\bpassive[ -]aggressi(?:ve|on)\b")
_NOT_TONE = re.compile(r"\b(?:kind|warm|best) (?:regards|wishes)\b|\w+-friendly\b")


@lru_cache(maxsize=4096)
def about_tone(description: str) -> bool:
    """Whether `description` asks only about the tone of the text, quoted phrases aside.

    At least one word must describe tone, and every other word must frame or join such words.
    Cached: a batch asks it of the same criteria for every output, twice each (bar and flag).
    """
    # "no passive aggression" is one tone; "passive voice" is grammar, not tone.
    text = _PASSIVE_AGGRESSION.sub("passive-aggressive", read(description).text)
    if _NOT_TONE.search(text) or re.search(r"\bq\d+\b", text):
        return False  # a quoted phrase asks for those words, not for a tone
    words = [_unprefixed(w) for w in _WORD.findall(text)]
    return any(w in _DESCRIBES for w in words) and all(w in _ALLOWED for w in words)


def _unprefixed(word: str) -> str:
    """A tone word after "non-" reads as the word: "non-dismissive" negates it as "not" does."""
    stem = word.removeprefix("non-")
    return stem if stem in _DESCRIBES else word
