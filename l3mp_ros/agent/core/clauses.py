# Copyright 2026 The l3mp_ros Authors
# SPDX-License-Identifier: Apache-2.0
"""Reports split into the changes they tell, and names no entity carries.

A small model asked for every change of "Theo came into lab 101 and put on his coat"
often writes one of the two and stops; the verifier cannot see what is missing, so a
partial update would be applied. :func:`split_report` cuts a report at clause
boundaries (``and``/``then``/``but``/``;`` followed by a verb or a new subject, not by a
noun phrase: "his goggles and her coat" stays whole), so Algorithm 3 can ask for each
part in turn and reject the report when one part yields nothing. It is English
word-shape rules only: no domain words, no tagger.

:func:`unknown_names` finds capitalised words inside a sentence that no entity name
contains ("We have a new postdoc, Karim"): the report is about something the world
model does not hold, and is refused before any LLM call.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from ...text import NUMBER_WORDS, unaccented

SUBJECT_PRONOUNS = frozenset(
    "he she they it it's we i someone somebody everyone everybody nobody".split())
NOUN_STARTERS = frozenset("""
a an the his her their its my our your this that these those some all both each every
any one two three four five six seven eight nine ten several many few other another no
its own either neither half
""".split())
_BOUNDARY = re.compile(r'\s*(;|,\s*and then|,\s*then|\band then\b|,\s*and\b|\band\b|,\s*but\b'
                       r'|\bbut\b|,(?=\s+(?:he|she|they|it|it\'s|we|i)\b))\s*', re.IGNORECASE)
# a leading participle clause that tells a change of its own ("after going to ...,")
_LEADING = re.compile(r'^((?:after|before|once|having)\s+\w+ing\b[^,;]*|having\s+\w+[^,;]*),\s+',
                      re.IGNORECASE)
# a speaker's opening ("Fiona:", "Yard to office:"): not words of the first clause
_OPENER = re.compile(r'^[^:;,.!?]{1,40}:\s+')
# a task's sentences (and "It is too dark: switch on the light")
_SENTENCE = re.compile(r'(?<=[.!?;:])\s+')
# a pronoun a request uses for what a dropped description named ("answer it")
_PRONOUN = re.compile(r'\b(it|them)\b', re.IGNORECASE)
STATE_VERBS = frozenset('am is are was were seems seem looks look'.split())
REQUESTING = frozenset('please should must can could would will shall may might need needs '
                       'make let want wants'.split())
DESCRIBED = frozenset('the a an my his her its our their your this that these those there '
                      'everything nothing nobody everyone someone something'.split())
SUBORDINATORS = frozenset('after before once having while when as since'.split())
# a verb of going with a place word after it: the one named before it is somewhere else now
# ("Bob came into the mailroom", "Mia just headed over to", "Sven went back", "on his way
# out to"); "moved the
# tablet" or "left her door open" are no such verbs (an object follows)
_GOING = re.compile(
    r'\b(?:came|comes|come|coming|went|gone|goes|go|going|walked|walks|walking|stepped|steps|'
    r'headed|heads|heading|ran|runs|running|returned|returns|hurried|rushed|strolled|'
    r'wandered|popped|moved|moves|drove|arrived|arrives|(?:got|gets)(?!\s+up\b)|'
    r'on\s+(?:his|her|their|my|our)\s+way)\s+(?:just\s+|now\s+)?'
    r'(?:back\s+|over\s+|off\s+|out\s+|down\s+|up\s+|away\s+|straight\s+|along\s+|'
    r'round\s+|around\s+)*'
    r'(?:in|into|to|towards?|inside|outside|out|over|across|through|from|down|up|back|'
    r'home|off|away)\b'
    # being back somewhere is having gone there: "Maureen's back in the clubhouse", "I'm
    # back down in the bay"
    r'|\b(?:is|are|am|s|m|re)\s+(?:now\s+|just\s+)?back\s+(?:(?:down|up|out|over|round)\s+)?'
    r'(?:in|into|on|onto|at|inside)\b', re.IGNORECASE)
#: taking someone or something along somewhere: "taken Mrs Patel and Biscuit through to",
#: "took the pen to" (what is taken stands between the verb and where they went); not
#: "brought the backdrop down to the stage" nor "wheeled the robot into the room", which
#: the sets' writers read as the thing moved alone as often as with whoever moved it
_ESCORT = re.compile(
    r'\b(?:took|taken|takes|taking|led|leads|leading|wheeled|wheels|wheeling|pushed|pushes|'
    r'pushing|pulled|pulls|pulling)\s+'
    r"(?:(?!(?:to|into|onto|then)\b)[\w'’]+[,]?\s+){1,6}?"
    r'(?:(?:back|out|over|down|up|round|around|across|through|in|along)\s+)*(?:to|into|onto)\b',
    re.IGNORECASE)
#: bringing someone somewhere: "brought Mr and Mrs Hughes through to the kennels" (only
#: with someone brought: "brought the yoghurt out to the packing table" moves the yoghurt)
_BRING = re.compile(
    r'\b(?:brought|brings|bringing|bring)\s+'
    r"(?:(?!(?:to|into|onto|then)\b)[\w'’]+[,]?\s+){1,6}?"
    r'(?:(?:back|out|over|down|up|round|around|across|through|in|along)\s+)*(?:to|into|onto)\b',
    re.IGNORECASE)
_WORD = re.compile(r"[A-Za-z0-9]+(?:['’][A-Za-z]+)?")
NOT_NAMES = frozenset("""
monday tuesday wednesday thursday friday saturday sunday january february march april may
june july august september october november december i ok okay mr mrs ms dr prof
""".split())


def named_as_source(said: list[str], start: int) -> bool:
    """Tell whether the words before ``said[start]`` name a place something leaves.

    "came back out of the cold room", "in from the yard", "take it off the cart": such a
    place is where something was, not where it goes.
    """
    before = [w for w in said[max(start - 3, 0):start] if w not in NOUN_STARTERS]
    return before[-1:] in (['from'], ['off']) or before[-2:] == ['out', 'of']


def _words(text: str) -> list[str]:
    """Return the words of ``text`` as written, found with their accents dropped ("Zoë")."""
    return [text[m.start():m.end()] for m in _WORD.finditer(unaccented(text))]


def _plain(word: str) -> str:
    return re.split(r"['’]", unaccented(word).lower())[0]


def split_report(text: str, lexicon: Iterable[str] = (), *, min_words: int = 2) -> list[str]:
    """Return the report's clauses (the report itself when it tells one thing).

    ``lexicon`` holds the words of the world's entity names: a word after "and" that
    names something ("and blue pens") starts a noun phrase, not a clause.
    """
    lex = {w.lower() for w in lexicon}
    text = ' '.join(str(text).split())
    lead = _LEADING.match(text)
    if lead and len(_words(text[lead.end():])) >= 2:
        # "After going to the kitchen, Anna ...": the move is a change of its own
        rest = split_report(text[lead.end():], lex, min_words=min_words)
        return [lead.group(1).strip(), *rest]
    parts: list[str] = []
    current = ''
    pos = 0
    for m in _BOUNDARY.finditer(text):
        left = (current + ' ' + text[pos:m.start()]).strip() if current else text[pos:m.start()]
        right = _words(text[m.end():])
        sep = m.group(1).lower()
        if _is_clause_start(sep, right, lex) and len(_words(_OPENER.sub('', left))) >= min_words \
                and len(right) >= 2:
            parts.append(' '.join(left.split()).strip(' ,'))
            current = ''
        else:
            current = (left + text[m.start():m.end()]).rstrip() + ' '
        pos = m.end()
    last = (current + text[pos:]).strip(' ,') if current else text[pos:].strip(' ,')
    if last:
        parts.append(' '.join(last.split()))
    return parts if len(parts) > 1 else [text]


def split_task(text: str, lexicon: Iterable[str] = ()) -> list[str]:
    """Return the requests of a task: its sentences cut at clauses (:func:`split_report`).

    A sentence or clause that only describes (:func:`describes`: "Laura's phone is
    ringing.", "it is ringing") is left out when something else is asked; a request that
    names nothing itself gets the description's subject for its "it" or "them" ("Please
    answer Laura's phone."). A clause that
    names no thing of the world ("Please wash") is joined to the next one ("... and dry
    the hoodie"), so "wash and dry" stays one request; a sentence that names nothing
    ("Can you see to it?") stays with the one before it.
    """
    lex = {w.lower() for w in lexicon}
    text = ' '.join(str(text).split())
    sentences = [x for x in _SENTENCE.split(text) if x.strip(' .')]
    kept = _requests(sentences, lex)
    parts: list[str] = []
    ahead = ''  # a first sentence naming nothing, put before the next one
    for k, (at, sentence) in enumerate(kept):
        clauses = [c for c in split_report(sentence, lex) if not describes(c, lex)] or [sentence]
        named = [bool({_plain(w) for w in _words(c)} & lex) for c in clauses]
        if not any(named):
            if parts and k > 0 and kept[k - 1][0] == at - 1:
                parts[-1] = f'{parts[-1]} {sentence}'  # the sentence it follows in the text
            elif k + 1 < len(kept):
                ahead += sentence + ' '
            else:
                parts.append(ahead + sentence)
            continue
        carry, ahead = ahead, ''
        for c, has in zip(clauses, named, strict=True):
            if not has:
                carry += c.rstrip(' ,.') + ' and '
                continue
            parts.append(carry + c)
            carry = ''
        if carry:
            parts[-1] = parts[-1].rstrip(' ,.') + ' and ' + carry[:-5]
    if len(parts) == 1 and parts[0].strip(' .!?') == text.strip(' .!?'):
        return [text]
    return parts


def _requests(sentences: list[str], lex: set[str]) -> list[tuple[int, str]]:
    """Return (position, sentence) of the sentences that ask something (all when none does).

    With one description left out, a request naming nothing gets its subject for "it" or
    "them": "Laura's phone is ringing. Please answer it."
    """
    kept = [(i, x) for i, x in enumerate(sentences) if not describes(x, lex)] \
        or list(enumerate(sentences))
    at = {i for i, _ in kept}
    said = [subject(x) for i, x in enumerate(sentences) if i not in at]
    if len(said) == 1 and said[0]:
        kept = [(i, x if {_plain(w) for w in _words(x)} & lex else _PRONOUN.sub(said[0], x))
                for i, x in kept]
    return kept


def subject(sentence: str) -> str | None:
    """Return the words before a describing sentence's verb ("Laura's phone").

    A leading determiner is written in lower case; None when the subject is a pronoun
    ("It is too dark").
    """
    ws = _words(sentence)
    k = next((i for i, w in enumerate(ws[:6]) if _plain(w) in STATE_VERBS), None)
    if not k or _plain(ws[0]) in SUBJECT_PRONOUNS:
        return None
    first = ws[0].lower() if _plain(ws[0]) in DESCRIBED else ws[0]
    return ' '.join([first, *ws[1:k]])


def describes(clause: str, lexicon: Iterable[str] = ()) -> bool:
    """Return True when a clause only says how things are ("Nora is thirsty").

    Its subject (a pronoun, a determiner's noun phrase or a name of the world) is followed,
    within five words, by a form of "be" or "seem", with no modal or request word before
    it ("Make sure the door is shut", "Everything should be clean" ask).
    """
    ws = [_plain(w) for w in _words(clause)]
    k = next((i for i, w in enumerate(ws[:6]) if w in STATE_VERBS), None)
    if not k or set(ws[:k]) & REQUESTING:
        return False
    return ws[0] in SUBJECT_PRONOUNS or ws[0] in DESCRIBED or ws[0] in set(lexicon)


def _is_clause_start(sep: str, right: list[str], lex: set[str]) -> bool:
    if not right:
        return False
    first = _plain(right[0])
    second = _plain(right[1]) if len(right) > 1 else ''
    if sep == ';' or 'then' in sep:
        return True
    if first == 'me' or (first == 'i' and second in ('are', 'were')):
        return False  # "Ollie and I are back", "Fly and me are off": a subject of two
    if first in SUBJECT_PRONOUNS:
        return True
    if first in NOUN_STARTERS or first.isdigit():
        return False
    if right[0][:1].isupper() or first in lex:
        # "and Rosa locked ..." is a new clause; "and Rosa" / "and blue pens" are not
        return bool(second) and second not in lex and second not in NOUN_STARTERS \
            and not second.isdigit() and sep.startswith(',')
    return True


def unknown_names(text: str, lexicon: Iterable[str]) -> list[str]:
    """Return capitalised words inside sentences that no entity name contains.

    A sentence starts after a colon too ("Megan: Cubs have had their go"). Not someone
    new: a word after "the" (a group or a body: "the Cubs", "the Council"), nor a title
    before a known name ("Station Manager Lowe").
    """
    lex = {w.lower() for w in lexicon}

    def known(tok: str) -> bool:
        word = _plain(tok)
        return len(word) < 3 or word in NOT_NAMES or word in lex or _singular(word) in lex \
            or NUMBER_WORDS.get(word) in lex \
            or (word + 's' in lex and tok.lower().endswith(("'s", '’s')))  # noahs_ark

    out: list[str] = []
    for sentence in re.split(r'(?<=[.!?:])\s+', ' '.join(str(text).split())):
        spans = [m.span() for m in _WORD.finditer(unaccented(sentence))]
        tokens = [sentence[a:b] for a, b in spans]
        for k, tok in enumerate(tokens):
            if k == 0 or not tok[:1].isupper() or tok.isupper() and len(tok) <= 4:
                continue
            if known(tok) or _plain(tokens[k - 1]) == 'the' \
                    or _titles(sentence, spans, k, known):
                continue  # "Eighty": names keep it as 80
            if tok not in out:
                out.append(tok)
    return out


def _titles(sentence: str, spans: list[tuple[int, int]], k: int,
            known: Callable[[str], bool]) -> bool:
    """Tell whether word ``k`` opens a run of capitalised words ending in a known name.

    The run's words stand one space apart: "Station Manager Lowe", not "Saturdays, Priti".
    """
    for (_, end), (start, stop) in zip(spans[k:], spans[k + 1:], strict=False):
        tok = sentence[start:stop]
        if sentence[end:start].strip() or not tok[:1].isupper():
            return False
        if known(tok):
            return True
    return False


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith('s') else word


def going_ends(text: str, escort: bool = False) -> list[int]:
    """Return where each verb of going in ``text`` ends (character offsets), in order.

    With ``escort``, where each taking along ends too (:func:`escorted`).
    """
    ends = [m.end() for m in _GOING.finditer(text)]
    return sorted(ends + [m.end() for m in _ESCORT.finditer(text)]) if escort else ends


def bringing_spans(text: str) -> list[tuple[int, int]]:
    """Return where what each bringing along in ``text`` brings lies, and where it ends.

    Character offsets: "brought Tobi through to" gives the span of "Tobi through to" (a
    going only when someone is brought: :func:`brought`).
    """
    out = []
    for m in _BRING.finditer(text):
        verb = re.match(r'\S+\s+', m.group(0))
        out.append((m.start() + (verb.end() if verb else 0), m.end()))
    return out


def escorted(text: str) -> tuple[str, int, int] | None:
    """Return the words of the first taking along in ``text`` and where what is taken lies.

    "Tom's taken Mrs Patel and Biscuit through to consult two": ("taken Mrs Patel and
    Biscuit through to", and the character span of "Mrs Patel and Biscuit through "); the
    one who took went there too, with whoever of what is taken can be there.
    """
    return _along(_ESCORT.search(text))


def brought(text: str) -> tuple[str, int, int] | None:
    """Return the words of the first bringing along in ``text``, as :func:`escorted` does.

    "I've brought Tobi through to the sports hall": who brought him went there too, but
    only when someone is brought (:func:`.report.subjects.going`); a thing brought to a
    place may have been sent or carried there alone.
    """
    return _along(_BRING.search(text))


def _along(found: re.Match[str] | None) -> tuple[str, int, int] | None:
    if found is None:
        return None
    verb = re.match(r'\S+\s+', found.group(0))
    return found.group(0), found.start() + (verb.end() if verb else 0), found.end()


def goes_somewhere(text: str) -> str | None:
    """Return the words of a verb of going in ``text`` ("came into"), else None.

    Only the shape of English: a verb of moving oneself followed by a place word, so the
    one named before it is somewhere else now.
    """
    found = _GOING.search(text)
    return found.group(0) if found else None
