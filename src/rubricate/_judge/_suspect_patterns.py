# ruff: noqa: E501  (the patterns read better unbroken)
"""What a passage aimed at the grader looks like: families of patterns, each with its trigger words.

Verdict vocabulary, forged verdict JSON and markup, claims about an earlier grading, words
addressed to an AI, grader or evaluator, fake end-of-output markers, claims the answer makes
about itself. A pattern runs only when the words every match of it contains are in the text
(`Trigger`), so most honest outputs scan few patterns or none.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = [
    "BARE_ANYWHERE",
    "BARE_TRIGGER",
    "BARE_VERDICT",
    "BY_STRING",
    "BY_WORD",
    "PATTERNS",
    "STRING_CHARS",
]

# Vocabulary the families share (all matched on lower-cased, normalised text).
_AI = r"(?:ai|a\.i\.|llm|llms|language model|model|grader|grading (?:model|system|agent|bot)|judge|judging model|evaluator|evaluation (?:model|system|agent|bot)|assessor|reviewer|scorer|marker|examiner|checker|assistant|bot|automated (?:\w+ )?(?:system|grader|judge|reviewer|evaluator|checker|pipeline)|machine|gpt|chatgpt|claude|gemini)s?"
_VERDICT_WORD = r"(?:pass(?:ed|es|ing)?|yes|true|approved?|accept(?:ed)?|satisfied|met|compliant|correct|valid|success(?:ful)?|green|ok(?:ay)?|good|perfect|excellent|complete|acceptable|adequate|sufficient|satisfactory|fine|flawless|outstanding|great|right|full marks|\d+\s*stars?|full credit|max(?:imum)? (?:score|marks|points)|a\+|\d+(?:\.\d+)?\s*(?:/|out of)\s*\d+|100\s*%|✅|✔️?|☑️?)"
_VERB_TO_GRADE = r"(?:answer|respond|reply|say|output|return|mark|grade|score|rate|label|classify|record|log|report|treat|consider|count|evaluate|judge|pass|approve|accept|give|assign|award|flag|tick|check)"
_RUBRIC = r"(?:rubric|criteri(?:on|a)|checklist|requirements?|instructions?|guidelines?|rules?|constraints?|specifications?|specs?|conditions?|checks?|tests?|points?|boxes|items?|standards?|expectations?|asks?)"
_GRADING_NOUN = r"(?:grading|grade|grader|evaluation|evaluator|review|reviewer|assessment|assessor|judge|judging|judgement|judgment|check|checker|audit|auditor|validation|verification|scoring|scorer|moderation|moderator|marking|marker|examiner|qa|quality (?:check|review|assurance))"
_THE_ANSWER = r"(?:answer|response|output|summary|reply|essay|text|solution|submission|poem|story|code|script|explanation|translation|email|letter|article|report|list|paragraph|write-?up|draft|piece|work|content|result|deliverable|document|message|post|description|overview|proof|haiku|review|abstract|note|analysis)"
_ABOUT_ITSELF = r"(?:meets|satisfies|fulfil+s|complies|adheres|conforms|follows|covers|includes|contains|addresses|mentions|lists|names|states|provides|answers|gives|cites|uses|has|hits|ticks|checks|matches|respects|stays|keeps|is\s+(?:fully\s+|entirely\s+|completely\s+|clearly\s+|very\s+)?(?:correct|complete|accurate|compliant|valid|right|perfect|exemplary|flawless|acceptable|adequate|satisfactory|sufficient|within|under|below|exactly|written|in|formatted|free|polite|courteous|respectful|professional|friendly|formal|concise|brief|short|clear|appropriate|on[- ]topic|grammatical))"
_PRESENT = r"(?:included|mentioned|listed|covered|present|addressed|provided|given|stated|met|satisfied|fulfil+ed|cited|explained|answered|discussed|described|named|shown|there|respected|followed|observed|used|incorporated|accounted for|taken care of|handled|dealt with|in place)"
_SECTION = r"(?:output|answer|response|submission|text|document|message|input|transcript|essay|content|evidence|reply|generation|completion|candidate(?:'s)? \w+|student(?:'s)? \w+|model(?:'s)? \w+|assistant(?:'s)? \w+|user(?:'s)? \w+|task|data|context)"


# Trigger words: a pattern runs only when its words are in the text (see `_Trigger`).
_AI_WORDS = "ai llm llms language model models grader graders grading judge judges judging evaluator evaluators evaluation assessor assessors reviewer reviewers scorer scorers marker markers examiner examiners checker checkers assistant assistants bot bots automated machine machines gpt chatgpt claude gemini"
_VERB_WORDS = "answer respond reply say output return mark grade score rate label classify record log report treat consider count evaluate judge pass approve accept give assign award flag tick check"
_RUBRIC_WORDS = "rubric criterion criteria checklist requirement requirements instruction instructions guideline guidelines rule rules constraint constraints specification specifications spec specs condition conditions check checks test tests point points boxes item items standard standards expectation expectations ask asks"
_GRADING_WORDS = "grading grade grader evaluation evaluator review reviewer assessment assessor judge judging judgement judgment check checker audit auditor validation verification scoring scorer moderation moderator marking marker examiner qa quality"
_ANSWER_WORDS = "answer response output summary reply essay text solution submission poem story code script explanation translation email letter article report list paragraph write up writeup draft piece work content result deliverable document message post description overview proof haiku review abstract note analysis"
_GRADED_WORDS = "graded evaluated reviewed verified approved validated assessed scored certified confirmed vetted audited signed cleared checked marked"
_VERDICT_WORDS = "pass passed passes passing yes true approve approved accept accepted satisfied met compliant correct valid success successful green ok okay good perfect excellent complete acceptable adequate sufficient satisfactory fine flawless outstanding great right full stars star credit maximum max / % ✅ ✔ ☑"
_PRESENT_WORDS = "included mentioned listed covered present addressed provided given stated met satisfied fulfilled fulfiled cited explained answered discussed described named shown there respected followed observed used incorporated accounted taken handled dealt place"
_NOUN_WORDS = "dates date points point items item facts fact names name steps step examples example requirements requirement elements element details detail keywords keyword key sections section questions question parts part aspects aspect topics topic figures figure numbers number sources source references reference citations citation words word terms term ingredients ingredient events event people places place reasons reason features feature components component bullets bullet paragraphs paragraph sentences sentence entities values value"


@dataclass(frozen=True)
class _Trigger:
    """What every match of a pattern contains: from each group, one of its words or strings.

    Testing a word against the set of the text's words costs next to nothing, so a pattern
    only scans the text when it could match: most honest outputs scan few or none.
    """

    groups: tuple[tuple[frozenset[str], tuple[str, ...]], ...]

    def present(self, words: set[str], lowered: str) -> bool:
        for group, strings in self.groups:
            if group.isdisjoint(words) and not (strings and any(s in lowered for s in strings)):
                return False
        return True


def _t(spec: str) -> _Trigger:
    """`"dear hey <| | grader"`: groups split by " | "; a word matches whole (plural too)."""
    groups = []
    for group in spec.split(" | "):
        items = group.split()
        words = [w for w in items if w.isalpha()]
        strings = tuple(i for i in items if not i.isalpha())
        groups.append((frozenset(words + [f"{w}s" for w in words]), strings))
    return _Trigger(tuple(groups))


@dataclass(frozen=True)
class _Family:
    """One kind of suspect passage and the patterns that find it."""

    reason: str
    patterns: tuple[tuple[_Trigger, re.Pattern[str]], ...]
    to_paragraph_end: bool = False
    """Mask from the match to the end of its paragraph (what follows is addressed the same way)."""
    whole_sentence: bool = True
    """Mask the sentence around a match; markup tokens and comments are masked alone, so that
    the answer they are glued to stays in view."""


def _family(
    reason: str,
    *patterns: tuple[_Trigger, str],
    to_paragraph_end: bool = False,
    whole_sentence: bool = True,
) -> _Family:
    compiled = tuple((t, re.compile(p, re.MULTILINE | re.DOTALL)) for t, p in patterns)
    return _Family(reason, compiled, to_paragraph_end, whole_sentence)


_FAMILIES: tuple[_Family, ...] = (
    _family(
        "words addressed to an AI, grader or evaluator",
        (
            _t("dear hey hi hello greetings attention attn calling"),
            rf"\b(?:dear|hey|hi|hello|greetings|attention|attn|calling)\b[\s,:]+(?:the\s+|all\s+|any\s+|an?\s+|fellow\s+|mr\.?\s+|ms\.?\s+)?(?:\w+\s+)?{_AI}\b",
        ),
        (
            _t(
                "note notice message memo reminder instruction instructions request psa fyi heads ps p comment word letter"
            ),
            rf"\b(?:note|notice|message|memo|reminder|instructions?|request|psa|fyi|heads[- ]up|p\.?s\.?|comment|word|letter)s?\s+(?:\w+\s+)?(?:to|for)\s+(?:the\s+|any\s+|an?\s+|all\s+|whoever\s+|whichever\s+|our\s+|my\s+)?(?:\w+\s+)?(?:{_AI}|whoever|anyone)\b",
        ),
        (
            _t(f"{_AI_WORDS}"),
            rf"(?:^|[.!?]\s+)[\s>*#_(\[-]*(?:to|for)\s+(?:the|any|an?|all)\s+(?:\w+\s+)?{_AI}\b",
        ),
        (
            _t(
                f"{_AI_WORDS} grading evaluating reviewing assessing scoring checking marking judging"
            ),
            rf"\b(?:if|when|while|whoever|anyone|anybody|any|whatever|whichever)\b[^.\n]{{0,20}}\b(?:you\s+are|you're|is|are|reads?|reading)\b[^.\n]{{0,20}}?\b(?:an?\s+|the\s+)?(?:{_AI}|grading|evaluating|reviewing|assessing|scoring|checking|marking|judging)\b",
        ),
        (
            _t(f"you | {_AI_WORDS} grading evaluating judging reviewing assessing scoring marking"),
            rf"\byou\s+(?:are|'re)\s+(?:an?\s+|the\s+|now\s+)?(?:\w+\s+)?(?:{_AI}|grading|evaluating|judging|reviewing|assessing|scoring|marking)\b",
        ),
        (
            _t(f"{_AI_WORDS}"),
            rf"\b{_AI}\s*[,:]?\s*(?:please|kindly)\b",
        ),
        (
            _t(f"{_AI_WORDS}"),
            rf"\b{_AI}\s*[,:]?\s*(?:[\w'’]+\s+){{0,4}}?(?:must|should|shall|will|needs? to|has to|have to|is (?:instructed|asked|required|expected|told|supposed) to|are (?:instructed|asked|required|expected|told|supposed) to|may|can safely|is free to|ought to|can)\s+(?:now\s+|safely\s+|simply\s+|just\s+|also\s+)?(?:{_VERB_TO_GRADE}|confirm|agree|conclude|proceed|ignore|disregard|overlook|skip|stop|find|recognise|recognize)\b",
        ),
        (
            _t(f"{_AI_WORDS} system sys grading evaluation"),
            rf"(?:^[\s>*#_(\[/;-]*|(?:#|//|--|/\*|<!--)\s*)(?:(?:{_AI}|system|sys|grading|evaluation)\s*){{1,2}}(?:note|message|notice|instruction)?\s*[:,]",
        ),
        (
            _t(
                f"please kindly simply just now so therefore you | {_VERB_WORDS} | {_VERDICT_WORDS}"
            ),
            rf"\b(?:please|kindly|simply|just|now|so|therefore|you (?:must|should|shall|will|need to|have to|are to|can|may))\s+(?:\w+\s+){{0,2}}?{_VERB_TO_GRADE}\b[^.\n]{{0,40}}?\b{_VERDICT_WORD}",
        ),
        (
            _t(f"{_VERB_WORDS} do don never | {_VERDICT_WORDS} | for to on"),
            rf"(?:^|[.!?:;]\s+)[\s>*#_(\[-]*(?:{_VERB_TO_GRADE}|do not|don't|never)\b[^.\n]{{0,30}}?\b(?:as\s+|with\s+|a\s+|an\s+|the\s+)?[\"'“‘]?{_VERDICT_WORD}[\"'”’]?(?=\W|$)[^.\n]{{0,30}}?\b(?:for|to|on)\b[^.\n]{{0,20}}\b(?:this|every|each|all|the)\b",
        ),
        (
            _t(
                f"marked graded scored rated counted accepted treated considered judged evaluated labeled labelled recorded deemed passed | {_VERDICT_WORDS} meeting satisfying"
            ),
            rf"\b(?:be|being|been|get|gets|getting|is|are|was|were)\s+(?:\w+\s+)?(?:marked|graded|scored|rated|counted|accepted|treated|considered|judged|evaluated|labell?ed|recorded|deemed|passed)\s+(?:as\s+)?(?:a\s+)?[\"'“]?(?:{_VERDICT_WORD}|right|fine|acceptable|meeting|satisfying|a pass)\b",
        ),
        to_paragraph_end=True,
    ),
    _family(
        "an instruction to set the grading instructions aside",
        (
            _t(
                f"ignore disregard forget override overrule bypass skip drop set overlook pay do don no | {_RUBRIC_WORDS} prompt directions direction task policy policies system above previous prior earlier"
            ),
            rf"\b(?:ignore|disregard|forget|override|overrule|bypass|skip|drop|set aside|overlook|pay no attention to|do not (?:follow|apply|use|consider|enforce)|don't (?:follow|apply|use|consider|enforce)|no longer (?:follow|apply))\b[^.\n]{{0,50}}?\b(?:{_RUBRIC}|prompt|directions?|task|polic(?:y|ies)|system|above|previous|prior|earlier)\b",
        ),
        (
            _t(
                "new updated revised additional real actual true hidden secret override priority corrected amended final | instructions instruction rubric criterion criteria rules rule task prompt directive directives guidelines guideline grading scoring orders"
            ),
            r"\b(?:new|updated|revised|additional|real|actual|true|hidden|secret|override|priority|corrected|amended|final)\s+(?:grading\s+|evaluation\s+|system\s+)?(?:instructions?|rubric|criteri(?:on|a)|rules?|task|system prompt|directives?|guidelines?|grading|scoring|orders)\b",
        ),
        (
            _t(
                "system developer admin administrator operator maintainer root sudo debug god | note message prompt override update instruction notice directive alert mode command access"
            ),
            r"\b(?:system|developer|admin|administrator|operator|maintainer|root|sudo|debug|god)\s*(?:note|message|prompt|override|update|instruction|notice|directive|alert|mode|command|access)\b",
        ),
        (
            _t(
                "instructions instruction rubric criterion criteria rules rule | changed updated revised replaced overridden waived suspended relaxed"
            ),
            r"\b(?:instructions?|rubric|criteri(?:on|a)|rules?) (?:has|have) (?:been )?(?:changed|updated|revised|replaced|overridden|waived|suspended|relaxed)\b",
        ),
    ),
    _family(
        "a verdict or score",
        (
            _t(
                f"verdict result results grade grading score scoring rating evaluation assessment decision status outcome judgement judgment label conclusion mark marks feedback review | {_VERDICT_WORDS}"
            ),
            rf"\b(?:verdict|result|results|grade|grading|score|scoring|rating|evaluation|assessment|decision|status|outcome|judgement|judgment|label|conclusion|mark|marks|feedback|review)\s*(?:is|was|=|:|-|–|—|→|->)\s*[\"'“*_\[(]*{_VERDICT_WORD}(?=\W|$)",
        ),
        (
            _t("grade mark marks rating score points"),
            r"\b(?:grade|mark|rating|score)\s*[:=]\s*[a-f][+-]?(?=\W|$)|\b(?:passing|perfect|full|top|maximum|max|high|highest|a\+)\s+(?:grade|score|mark|marks|rating|points)\b",
        ),
        (
            _t(
                f"pass passes passed meet meets met satisfy satisfies satisfied fulfil fulfill fulfils fulfills fulfilled comply complies complied clear clears cleared tick ticks ticked check checks hit hits nail nails nailed cover covers covered addresses addressed | {_RUBRIC_WORDS}"
            ),
            rf"\b(?:pass(?:es|ed)?|meets?|met|satisf(?:y|ies|ied)|fulfil+s?|fulfil+ed|compl(?:y|ies|ied) with|clears?|cleared|ticks?|ticked|checks? off|hits?|nails?|nailed|covers?|covered|addresses|addressed)\s+(?:on\s+)?(?:all|every|each|both|any|the|its|the\s+stated|the\s+listed)\s+(?:of\s+the\s+)?(?:\w+\s+){{0,2}}?{_RUBRIC}",
        ),
        (
            _t(
                f"all every each both the no | {_RUBRIC_WORDS} | met satisfied passed fulfilled fulfiled ticked checked covered addressed green ok done complete cleared failed violated broken"
            ),
            rf"\b(?:all|every|each|both|the|no)\s+(?:of\s+the\s+)?(?:\w+\s+){{0,2}}?{_RUBRIC}\s+(?:\w+\s+){{0,3}}?(?:are|is|have been|has been|were|was|now|all)?\s*(?:all\s+|now\s+|fully\s+|clearly\s+|already\s+|successfully\s+)?(?:met|satisfied|passed|fulfil+ed|ticked|checked|covered|addressed|green|ok|done|complete|cleared|failed|violated|broken)\b",
        ),
        (
            _t(
                "verdict grade score rating assessment evaluation outcome judgement judgment review grading verdicts grades scores ratings assessments evaluations outcomes"
            ),
            r"(?:^|[.!?]\s+)[\W_]*(?:[\w'’]+\s+){0,2}?(?:verdict|grade|score|rating|assessment|evaluation|outcome|judgement|judgment|review result|grading result)s?\s*(?:summary|result|notes?)?\s*[:=]",
        ),
        (
            _t(
                f"{_GRADING_WORDS} | complete completed done finished concluded successful passed over"
            ),
            rf"\b{_GRADING_NOUN}\s+(?:is\s+|was\s+|has\s+been\s+)?(?:complete|completed|done|finished|concluded|successful|passed|over)\b",
        ),
        (
            _t(f"all every each both | on for across in | {_VERDICT_WORDS}"),
            rf"(?:^|[.!?:;]\s+)[\s>*#_(\[-]*{_VERDICT_WORD}\s+(?:on|for|across|in)\s+(?:all|every|each|both)\b",
        ),
        (
            _t("pass passed yes met true satisfied ok ✅"),
            r"\b(?:pass|fail)\s*/\s*(?:pass|fail)\b|\b(?:c\d+|criteri(?:on|a)[ _-]?\d*|overall|requirement[ _-]?\d*|check[ _-]?\d+)\s*[:=-]\s*[\"']?(?:pass|passed|yes|met|true|satisfied|ok|✅)",
        ),
        (_t("✅ ✔ ☑ ✓ [x]"), r"(?:[✅✔☑✓]|\[x\]).{0,80}?(?:[✅✔☑✓]|\[x\])"),
        # The same vocabulary in a few other languages (French, Spanish, German, Italian, Portuguese).
        (
            _t(
                "critère critères criteres critere criterio criterios critério critérios kriterien criteri exigences requisitos anforderungen requisiti réussi reussi aprobado bestanden superato aprovado validé valide"
            ),
            r"\b(?:crit[eè]res?|crit[eé]rios?|criterios?|kriterien|criteri|exigences|requisitos|anforderungen|requisiti)\b[^.\n]{0,40}\b(?:remplis?|respect[ée]s|satisfaits?|cumplidos?|erf[üu]llt|soddisfatti|atendidos|cumpridos)\b|\b(?:réussi|aprobado|bestanden|superato|aprovado|validé)\b",
        ),
    ),
    _family(
        "a claim about an earlier grading",
        (
            _t(
                f"already previously earlier before once formally officially independently pre pregraded preapproved prechecked preverified prevalidated | {_GRADED_WORDS} passed accepted pregraded preapproved prechecked preverified prevalidated"
            ),
            r"\b(?:already|previously|earlier|before|once|formally|officially|independently|pre-?)[\s-]*(?:been\s+)?(?:graded|evaluated|reviewed|verified|approved|checked|validated|assessed|scored|passed|accepted|certified|signed off|cleared|confirmed|vetted|audited|marked)\b",
        ),
        (
            _t(
                f"previous prior earlier first last original initial another other senior human lead head official independent external upstream automated second | {_GRADING_WORDS}"
            ),
            rf"\b(?:previous|prior|earlier|first|last|original|initial|another|other|senior|human|lead|head|official|independent|external|upstream|automated|second)\s+(?:round\s+of\s+)?{_GRADING_NOUN}\b",
        ),
        (
            _t(f"{_GRADED_WORDS} | by with"),
            rf"\b(?:graded|evaluated|reviewed|verified|approved|validated|assessed|scored|certified|confirmed|vetted|audited|signed off|cleared|checked|marked)\s+(?:by|with)\s+(?:[\w'’-]+\s+){{0,3}}?(?:{_AI}|{_GRADING_NOUN}|experts?|teachers?|professors?|humans?|maintainers?|team|staff|moderators?|annotators?|panel|tests?|ci)\b",
        ),
        (
            _t(f"{_GRADED_WORDS} | previously already earlier before last as"),
            rf"\b(?:graded|evaluated|reviewed|verified|approved|validated|assessed|scored|certified|confirmed|vetted|audited|signed off|cleared|checked|marked)\s+(?:previously|already|earlier|before|last time|as\s+(?:an?\s+)?{_VERDICT_WORD}(?=\W|$))",
        ),
        (
            _t(f"{_AI_WORDS}"),
            rf"\b{_AI}\s+(?:has|have|had)?\s*(?:already\s+)?(?:confirmed|verified|approved|accepted|validated|signed off|checked|passed|agreed|certified|cleared|vetted|okayed|ok'd)\b",
        ),
        (
            _t("already"),
            r"\balready\b[^.\n]{0,30}?\b(?:graded|evaluated|reviewed|verified|approved|checked|validated|assessed|scored|passed|accepted|certified|signed|cleared|confirmed|vetted|audited|marked|looked)\b",
        ),
        (
            _t(
                "confirmed marked signed judged deemed found rated certified verified declared validated approved | correct right accurate valid compliant pass passing complete"
            ),
            r"\b(?:confirmed|marked|signed(?: it| this)? off|judged|deemed|found|rated|certified|verified|declared|validated|approved)\s+(?:(?:it|this|that|them|the)\s+(?:\w+\s+)?)?(?:as\s+|to be\s+)?(?:correct|right|accurate|valid|compliant|a pass|passing|complete)\b",
        ),
        (
            _t(f"further more additional | {_GRADING_WORDS}"),
            rf"\bno (?:further|more|additional|other)\s+{_GRADING_NOUN}\w*\b|\b(?:further|more|additional)\s+{_GRADING_NOUN}\w*\s+(?:is\s+)?(?:not\s+|un)(?:needed|necessary|required)",
        ),
        (
            _t("key reference expected model gold truth official scheme"),
            r"\b(?:answer key|reference answer|expected answer|model answer|gold (?:answer|label|standard)|ground truth|official (?:answer|solution)|marking scheme|mark scheme)\b",
        ),
        (
            _t(f"been | {_GRADED_WORDS}"),
            rf"\b(?:it|this|that|(?:the|this|my|our)\s+(?:\w+\s+)?{_THE_ANSWER}|(?:the|these|all|its|my|our)\s+(?:\w+\s+)?(?:facts?|claims?|statements?|figures?|numbers?|dates?|details?|points?|answers?|results?|calculations?|steps?|sources?))\s+(?:[\w'’]+\s+){{0,4}}?(?:has|have|had|is|are|was|were)\s+(?:already\s+|all\s+|now\s+|each\s+)?been\s+(?:graded|evaluated|reviewed|verified|approved|validated|assessed|scored|certified|vetted|audited|signed off|cleared|checked|confirmed|marked)\b",
        ),
    ),
    _family(
        "forged verdict data",
        (
            _t(
                "verdicts verdict passed pass result score grade rating criterion criteria label decision evaluation met satisfied status judgement judgment outcome gap approved correct reasoning overall"
            ),
            r"[\"'`]\s*(?:verdicts?|passed|pass|result|score|grade|rating|criterion|criteria|criterion_id|label|decision|evaluation|met|satisfied|status|judgement|judgment|outcome|gap|approved|is_correct|correct|reasoning|overall)\s*[\"'`]\s*[:=]",
        ),
        (
            _t(
                "system assistant user human grader judge evaluator reviewer instruction instructions response evaluation verdict rubric grading score"
            ),
            r"^[\s>*#_-]*(?:system|assistant|user|human|grader|judge|evaluator|reviewer)\s*:\s*\S|^#{2,}\s*(?:system|instruction|instructions|response|assistant|grader|evaluation|verdict|rubric|grading|score)\b",
        ),
    ),
    _family(
        "prompt markup",
        (
            _t("<"),
            r"<\s*/?\s*(?:output|answer|response|criteria|criterion|rubric|verdict|evaluation|eval|grading|grader|judge|system|assistant|user|human|instructions?|task|transcript|evidence|score|result|feedback|assessment|im_start|im_end|s|context|document|submission|tool_response)\b[^<>\n]{0,60}>",
        ),
        (
            _t("<| [ <<"),
            r"<\|[^|<>\n]{1,30}\|>(?:\s*(?:system|user|assistant|human)\b)?|\[/?(?:inst|sys|system|assistant|user|human|end|eof|output|answer|response)\]|<<\s*/?\s*sys\s*>>",
        ),
        whole_sentence=False,
    ),
    _family(
        "a marker claiming the output has ended",
        (
            _t("end close closing finish stop termination conclusion bottom"),
            rf"\b(?:end|close|closing|finish|stop|termination|conclusion|bottom)\s+of\s+(?:the\s+)?{_SECTION}\b|^[\W_]*(?:end|close|stop)\s+(?:the\s+)?{_SECTION}[\W_]*$",
        ),
        (
            _t("ends ended over stops finished complete completed done terminates"),
            rf"\b{_SECTION}\s+(?:ends|ended|is over|stops|finished|is finished|is complete|completed|is done|terminates)\s*(?:here|now|above)?\b",
        ),
        (
            _t("begin start beginning opening"),
            r"\b(?:begin|start|beginning|opening)\s+(?:of\s+)?(?:the\s+)?(?:grader|grading|evaluation|evaluator|judge|system|admin|assistant|instructions?|rubric|verdict|review|reviewer)\b",
        ),
        (
            _t("end eof eot stop fin done output answer response endoftext text"),
            r"^[\s#*=_~<>\[(-]*(?:end|eof|eot|stop|fin|done|/output|/answer|/response|end_of_text|endoftext)[\s#*=_~<>\])-]*$",
        ),
    ),
    _family(
        "a claim the answer makes about itself",
        (
            _t(
                f"{_ANSWER_WORDS} | meets satisfies fulfils fulfills complies adheres conforms follows covers includes contains addresses mentions lists names states provides answers gives cites uses has hits ticks checks matches respects stays keeps is"
            ),
            rf"\b(?:(?:this|my|our|the above|the preceding|the following|the present|above)\s+(?:\w+\s+)?{_THE_ANSWER}|the\s+{_THE_ANSWER}\s+(?:above|below|here|provided|given|i gave|i wrote|you are reading))\b[^.\n]{{0,40}}?\b{_ABOUT_ITSELF}\b",
        ),
        (
            _t(
                "shown stated mentioned listed noted demonstrated seen described required requested instructed specified given explained cited presented covered included outlined"
            ),
            r"\bas\s+(?:clearly\s+)?(?:shown|stated|mentioned|listed|noted|demonstrated|seen|described|required|requested|instructed|specified|given|explained|cited|presented|covered|included|outlined)\s+(?:above|below|earlier|previously|here|before|in the \w+)",
        ),
        (
            _t(f"{_NOUN_WORDS} | {_PRESENT_WORDS}"),
            rf"\b(?:all|every|each|both|the)\s+(?:\w+\s+){{0,3}}?(?:dates?|points?|items?|facts?|names?|steps?|examples?|requirements?|elements?|details?|keywords?|key ?words?|sections?|questions?|parts?|aspects?|topics?|figures?|numbers?|sources?|references?|citations?|words?|terms?|ingredients?|events?|people|places?|reasons?|features?|components?|bullets?|paragraphs?|sentences?|entities|values?)\s+(?:\w+\s+){{0,3}}?(?:are|is|have been|has been|were|was)\s+(?:\w+\s+)?{_PRESENT}\b",
        ),
        (
            _t(
                "i we | included covered addressed mentioned listed satisfied followed answered fulfilled fulfiled complied ticked checked incorporated made ensured"
            ),
            r"\b(?:i|we)\s*(?:have|'ve|'ll|will|did)?\s+(?:\w+\s+)?(?:included|covered|addressed|mentioned|listed|satisfied|followed|answered|fulfil+ed|complied|ticked|checked off|incorporated|made sure|ensured)\b",
        ),
        (
            _t("count total tally"),
            r"\b(?:word|character|sentence|paragraph|line|bullet|item|syllable)\s*(?:count|total|tally)\s*[:=(]",
        ),
        (
            _t(
                "all every each both everything | above here below answer response output reply text | correct accurate right true verified valid"
            ),
            r"\b(?:all|every|each|both|everything|every\w*)\b[^.\n]{0,40}?\b(?:above|here|below|in (?:this|my|the) (?:answer|response|output|reply|text))\s+(?:is|are|was|were)\s+(?:\w+\s+)?(?:correct|accurate|right|true|verified|valid)\b",
        ),
        (
            _t(
                "mentioned included listed covered addressed stated named cited given provided present | here above below in"
            ),
            r"\b(?:are|is|have been|has been|were|was)\s+(?:all\s+|both\s+|each\s+)?(?:\w+\s+)?(?:mentioned|included|listed|covered|addressed|stated|named|cited|given|provided|present)\s+(?:here|above|below|in (?:this|the|my) \w+)\b",
        ),
        (
            _t(f"above below here | {_ANSWER_WORDS}"),
            rf"\b(?:appears?|are|is|can be (?:found|seen)|features?|shows? up|occurs?)\s+(?:all\s+|both\s+|clearly\s+|explicitly\s+)?(?:in|within|throughout)\s+(?:the|this|my|our)\s+(?:\w+\s+)?{_THE_ANSWER}\s+(?:above|below|here)\b",
        ),
        (
            _t(
                "as | requires required asks asked requests requested demands specifies wants says | task prompt brief question assignment instructions instruction rubric criterion criteria user"
            ),
            r"\bas\s+(?:the\s+)?(?:task|prompt|brief|question|assignment|instructions?|rubric|criteri(?:on|a)|user)\s+(?:requires|required|asks|asked|requests|requested|demands|specifies|wants|says)\b",
        ),
        (
            _t("as | required instructed specified stipulated mandated"),
            r"\bas\s+(?:required|instructed|specified|stipulated|mandated)(?:\s*(?:[.,;:!)]|$)|\s+(?:by|in)\s+(?:the|your)\s+(?:task|prompt|brief|instructions?|rubric|criteri(?:on|a)|question))",
        ),
        (
            _t("everything | asked requested wanted needed required"),
            r"\beverything\s+(?:that\s+)?(?:you|the (?:task|prompt|brief|user|question))\s+(?:asked|requested|wanted|needed|required)\b",
        ),
        (
            _t("this | fully completely directly entirely"),
            r"\bthis\s+(?:\w+\s+)?(?:fully|completely|directly|entirely)\s+(?:answers|addresses|covers|meets|satisfies|fulfil+s|complies|responds)\b",
        ),
        (
            _t(f"the | {_ANSWER_WORDS} | correct accurate complete right valid compliant"),
            rf"\bthe\s+{_THE_ANSWER}\s+(?:above\s+|below\s+)?(?:is|was)\s+(?:\w+\s+)?(?:correct|accurate|complete|right|valid|compliant)\b",
        ),
        (
            _t("i we | kept limited capped held"),
            r"\b(?:i|we)\s*(?:have|'ve)?\s+(?:kept|limited|capped|held)\s+(?:it|this|them|the \w+|each \w+|every \w+|all \w+|everything)\b",
        ),
        (
            _t("i we | named gave given provided stated cited | all every each both"),
            r"\b(?:i|we)\s*(?:have|'ve)?\s+(?:\w+\s+)?(?:named|gave|given|provided|stated|cited)\s+(?:all|every|each|both)\b",
        ),
        (
            _t("fully completely entirely compliant complies conforms accurate correct complete"),
            r"\b(?:fully|completely|entirely|100\s*%)\s+(?:compliant|accurate|correct|complete)\b|\b(?:compliant|complies|conforms)\s+with\b",
        ),
    ),
    _family(
        "a forged conversation turn",
        (
            _t("<|im_start|> <|start_header_id|> [inst]"),
            r"<\|im_start\|>.*?(?:<\|im_end\|>|\n\s*\n|\Z)|<\|start_header_id\|>.*?(?:<\|eot_id\|>|\n\s*\n|\Z)|\[inst\].*?(?:\[/inst\]|\n\s*\n|\Z)",
        ),
        whole_sentence=False,
    ),
    _family(
        "a plea to pass",
        (
            _t("please pls kindly beg begging | pass approve accept"),
            r"\b(?:please|pls|kindly|i beg you|i'm begging you|i am begging you)\b[^.\n]{0,30}?\b(?:pass|approve|accept)\s+(?:this|it|me|my|the)\b",
        ),
        (
            _t("don do never please | fail reject"),
            r"\b(?:don't|do not|please don't|please do not|never)\s+(?:fail|reject|mark down|penali[sz]e)\s+(?:this|it|me|my|the)\b",
        ),
        (
            _t("depends depend riding rides | on"),
            r"\b(?:my|our|their|his|her)\s+(?:\w+\s+){0,2}(?:job|career|grade|scholarship|degree|future|livelihood|family|life|visa|promotion|bonus|reputation)\s+(?:\w+\s+){0,2}(?:depends?|rid(?:es|ing)|hangs?)\s+on\b",
        ),
        to_paragraph_end=True,
    ),
    _family(
        "a sign-off or check claimed for the answer",
        (
            _t(f"sign signoff signed | {_GRADING_WORDS} team lead"),
            rf"\b(?:{_GRADING_NOUN}|team|lead)\s+(?:team\s+)?sign[- ]?off\b|\bsigned[- ]off\s+by\s+(?:the\s+)?(?:\w+\s+)?(?:{_GRADING_NOUN}|team|lead)\b",
        ),
        (
            _t("✅ ✔ ☑ ✓"),
            rf"[✅✔☑✓]\ufe0f?\s*(?:[\w'’-]+\s+){{0,5}}?(?:{_PRESENT}|verified|approved|confirmed|checked|done|correct)\b",
        ),
    ),
    _family(
        "text hidden from a human reader",
        (_t("<!-- [//]:"), r"<!--.*?(?:-->|\Z)|^\[//\]: #[^\n]*"),
        whole_sentence=False,
    ),
)
BARE_VERDICT = re.compile(
    rf"^[\W_]*(?:(?:final\s+)?(?:verdict|result|grade|score|rating|decision|status|outcome|evaluation|assessment)?\s*[:=-]?\s*{_VERDICT_WORD}|all (?:good|set|clear|done)|lgtm|looks good(?: to me)?|no issues?(?: found)?)[\W_]*$"
)
BARE_ANYWHERE = re.compile(
    r"^[\W_]*(?:pass(?:ed)?|approved|accepted|satisfied|all criteria met|verdict\s*:.*|✅|✔️?)[\W_]*$"
)
PATTERNS = tuple((f, t, regex) for f in _FAMILIES for t, regex in f.patterns)


def _first_group_index() -> tuple[dict[str, tuple[int, ...]], tuple[tuple[str, int], ...]]:
    """Which patterns each word (or string) of their first trigger group can start."""
    by_word: dict[str, list[int]] = {}
    by_string: list[tuple[str, int]] = []
    for index, (_, trigger, _) in enumerate(PATTERNS):
        group, strings = trigger.groups[0]
        for word in group:
            by_word.setdefault(word, []).append(index)
        by_string.extend((string, index) for string in strings)
    return {w: tuple(ids) for w, ids in by_word.items()}, tuple(by_string)


BY_WORD, BY_STRING = _first_group_index()
STRING_CHARS = frozenset(string[0] for string, _ in BY_STRING)
BARE_TRIGGER = _t(
    f"{_VERDICT_WORDS} verdict result grade score rating decision status outcome evaluation"
    " assessment lgtm looks issues issue all"
)
