# ruff: noqa: SIM905  (word lists read better as text than as hundreds of quoted strings)
"""Whether a piece of text starts with a verb: "each step begins with an imperative verb".

English has no mark for a verb, so this is a word list, in two parts: verbs people start an
instruction, a task or a tip with ("Preheat", "Check", "Install"), and words that are never
the verb of such a sentence (articles, pronouns, prepositions, numbers, "-ly" adverbs). A first
word in neither list is left to the judge: the lists say what they know and nothing more.
"""

from __future__ import annotations

import re

__all__ = ["starts_with_verb"]

_VERBS = frozenset(
    """
    accept access activate add adjust agree aim allow apply approve arrange ask assign attach
    avoid back bake beat begin blend block boil book break bring brown brush build buy calculate
    call cancel capture carry change charge check chill choose chop clean clear click close
    collect combine come commit compare complete configure confirm connect consider contact
    continue cook cool copy correct count cover crack create crush cut decide define delete
    deliver deploy describe design detach determine dice dim disable discard discuss dismiss
    display dissolve divide do document double download drag drain draw drink drive drizzle drop
    dry dust eat edit email empty enable encourage end ensure enter estimate evaluate examine
    exit expand explain explore export extend fasten feed fetch file fill filter find finish fix
    flip focus fold follow forward freeze fry garnish gather generate get give go grab grate
    grease greet grill grind group handle hang heat help hide highlight hit hold identify ignore
    import improve include increase inform insert inspect install introduce invite iron join
    keep kill knead label launch lay lead learn leave let lift limit line link list listen load
    locate lock log look lower maintain make manage map mark marinate mash measure meet melt
    merge message migrate minimize mix monitor mount move name navigate note notify obtain offer
    open order organize organise outline pack paint pair paste pause pay peel pick pin place plan
    plant play plug point pour practice practise prefer preheat prepare present preserve press
    prevent print prioritize prioritise proceed process protect provide prune publish pull push
    put raise reach read reboot receive record reduce refer refresh refrigerate register reheat
    reinstall release reload remember remind remove rename reopen repeat replace reply report
    request require reschedule reset resize resolve respond rest restart restore retry return
    review revise rinse roast roll rotate run save say scan schedule score scroll seal search
    sear season secure see select send separate serve set settle share shift show shut sift sign
    simmer sit skip slice slide soak sort specify speak spend split spray spread sprinkle squeeze
    stack start state stay steam step stick stir stop store strain stretch submit subscribe
    summarize summarise supply support swap sweep switch tag take talk tap taste teach tell test
    thank think tidy tie tighten toast toggle top toss track train transfer translate trim
    try turn type uncheck uninstall unlock unplug unpack update upgrade upload use validate verify
    view visit wait wake walk want warm wash watch water wear weigh whisk wipe work wrap write
    adopt advise align allocate analyse analyze announce answer appoint archive assemble assess
    attend audit automate bookmark breathe brief browse calibrate celebrate chat clarify clip
    coach code communicate compile compose compress conduct convert coordinate crop customize
    customise debug decline decorate decrease delegate deselect detect develop disconnect
    distribute draft duplicate embed enrol enroll escalate establish exercise experiment finalize
    finalise flag flush forget format frame grow guide hire host hover hydrate implement inflate
    initialize interview investigate jog jot journal justify knock lean lengthen loosen mail
    match maximize meditate mention mentor microwave mop negotiate observe onboard operate opt
    optimize optimise override park pass patch perform phone pilot ping pitch poach polish post
    preview proofread propose punch purchase query quit rate recap recharge reconnect recycle
    redeem redirect reflect refund reject relax renew rent reorder repair rephrase research
    reserve resubmit retrieve reuse revert rewrite ride rub sanitize scale scrub sell ship
    shorten shuffle simplify sketch skim sleep snooze soften solve spin spot squash stand staple
    steep straighten stream streamline study suggest survey swim sync tackle tape thaw tilt
    touch trace transcribe travel treat trigger troubleshoot tweak undo unfold unsubscribe
    untangle unzip vacuum vote warn welcome whip widen withdraw zip zoom
    """.split()
)
_NOT_VERBS = frozenset(
    """
    a an the this that these those my your our their his her its i you we they he she it me us
    them there here if when whenever while after before once then next first second third finally
    lastly now also in on at for with by from to of into onto about over under between through
    and or but so because although though all each every some any no none both either neither
    many much more most few several one two three four five six seven eight nine ten
    """.split()
)
_MARKER = re.compile(
    r"^\s*(?:[-*+•]\s+|\d+[.)]\s+|[a-z][.)]\s+|\[[ xX]\]\s+)*"  # list markers and boxes
    r"(?:(?:step|task|tip)\s+\d+\s*[:.)-]\s*)?"  # "Step 3: ..."
    r"(?:\*\*[^*\n]{1,40}:\*\*\s*|\*\*[^*\n]{1,40}\*\*:\s*)?"  # a bold label: "**Fullscreen:** ..."
    r"[*_\"'“(]*",
    re.IGNORECASE,
)


def starts_with_verb(text: str) -> bool | None:
    """Whether `text` starts with a verb; `None` when its first word is in neither list."""
    rest = _MARKER.sub("", text.strip(), count=1)
    match = re.match(r"[A-Za-z][A-Za-z'’-]*", rest)
    if match is None:
        return False if rest[:1].isdigit() else None  # "3 eggs...": a number, not a verb
    word = match.group().casefold()
    if word in _VERBS:
        return True
    if word in _NOT_VERBS or (word.endswith("ly") and len(word) > 4):
        return False
    return None
