"""`RuleExtractor`: sentences read clause by clause and part by part, then the profile candidates
assembled (one per key) and everything put in utterance order."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from governed_memory.memory.errors import InvalidInput
from governed_memory.memory.models import Candidate, ExtractorInfo
from governed_memory.memory.vocabulary import NAME, TIMEZONE
from governed_memory.memory.write.extraction.arrivals import ARRIVES
from governed_memory.memory.write.extraction.claims import (
    _claim,
    _claimed_in_message,
    _claimed_in_sentence,
    _correction,
    _entities,
    names_an_id,
)
from governed_memory.memory.write.extraction.clauses import (
    Whose,
    _Clause,
    _clauses,
    _clean,
    _is_chinese,
    _is_question,
    _is_temporary,
    _one_off_context,
    _Part,
    _sentence_text,
    _whose,
    read,
)
from governed_memory.memory.write.extraction.contents import _content
from governed_memory.memory.write.extraction.cues import _CONTINUES, _REL_ZH, _STANDING, _TOPIC
from governed_memory.memory.write.extraction.family import _family_statement, lasting, of_family
from governed_memory.memory.write.extraction.message import (
    named_zone_for_offset,
    one_claim_per_key,
    without_restatements,
    zone_from_place,
)
from governed_memory.memory.write.extraction.models import (
    REMEMBER,
    SELF_STATEMENT,
    ExtractedCandidate,
    Extraction,
    Skipped,
)
from governed_memory.memory.write.extraction.names import _preferred_name
from governed_memory.memory.write.extraction.personal import (
    _availability,
    _self_statement,
    _third_party_statement,
    goes_on,
)
from governed_memory.memory.write.extraction.preferences import (
    SECOND_THOUGHT,
    _Pref,
    _prefs,
    _timezone_prefs,
    language_instead,
    second_thought,
)
from governed_memory.memory.write.extraction.quiet import quiet_across
from governed_memory.memory.write.extraction.relayed import (
    _relayed_as_self,
    passed_on,
    passed_to_courier,
)
from governed_memory.memory.write.extraction.remembering import (
    NOTHING_SAID,
    _asked_to_remember,
    _remember_rest,
    remembered_back,
    with_requests_to_remember_joined,
)
from governed_memory.memory.write.extraction.whereabouts import zone_of_where_i_am
from governed_memory.memory.write.extraction.wishes import (
    _standing_cue_alone,
    _standing_wish,
    _style_wish,
    standing_after,
)
from governed_memory.memory.write.normalize import fold, normalize_timezone, normalize_whitespace


@dataclass
class _Collected:
    prefs: list[_Pref]
    semantic: list[tuple[int, ExtractedCandidate]]
    skipped: list[tuple[int, Skipped]]
    lasting: bool  # the message says what it says for good (`personal.lasting`)
    sentence: str = ""  # the sentence being read, as read


class RuleExtractor:
    """Offline, deterministic extraction for Chinese and English (see the module docstring)."""

    info = ExtractorInfo(name="rule-extractor", version="2")

    def extract(self, text: str, *, default_timezone: str) -> Extraction:
        zone = normalize_timezone(default_timezone)
        if zone is None:
            raise InvalidInput(f"unknown time zone {default_timezone!r}", field="default_timezone")
        zh = _is_chinese(text)
        got = _Collected([], [], [], lasting(read(text)))
        sentences = with_requests_to_remember_joined(_clauses(text))
        # A zone the user states for themselves is the one their hours in the same words are in
        # ("I'm on Pacific time, so don't call before 9am"), or where they are, said beside a
        # question of time ("I'm in Chicago, so … after 6pm my time"): not the account's.
        zone = _declared_zone(sentences) or zone_of_where_i_am(text) or zone
        # what the message's earlier sentences that name an id named ("My order number is
        # 66120934. It's been stuck on processing."): what a claim with no entity is about
        named: list[str] = []
        for sentence in sentences:
            before = (len(got.prefs), len(got.semantic), len(got.skipped))
            got.sentence = " ".join(c.norm for c in sentence)
            self._sentence(sentence, zone, got, list(named))
            self._corrected(sentence, before, got, zh)
            self._claims_named(sentence, before[1], got, zh)
            if names_an_id(_sentence_text(sentence, zh)):
                named += [e for c in sentence for e in _entities(c.norm)]
        got.prefs = [named_zone_for_offset(p, text) for p in got.prefs]
        if not any(p.key == TIMEZONE for p in got.prefs):
            placed = zone_from_place(text, [c for sentence in sentences for c in sentence])
            if placed is not None:
                got.prefs.append(placed)
                # the statement of where they are said only that: the zone keeps it
                got.semantic = [
                    (order, found)
                    for order, found in got.semantic
                    if found.candidate.key is not None
                    or (
                        found.clause != placed.clause
                        and placed.clause not in found.candidate.content
                    )
                ]
        if len(sentences) > 1:
            for n, (order, found) in enumerate(got.semantic):
                claim = _claimed_in_message(found.candidate, text)
                if claim is not found.candidate:
                    got.semantic[n] = (order, found.model_copy(update={"candidate": claim}))
        items = self._profile_candidates(got.prefs, zh) + one_claim_per_key(got.semantic, zh)
        if len(items) > 1:
            # "I'm never home during the day" is kept for what it implies only when it is said
            # alone: beside the wish it explains ("leave my parcels at the front desk, I'm never
            # home during the day"), the wish is what the user asked for.
            items = [item for item in items if not _availability(fold(item[1].candidate.content))]
        items = without_restatements(items)
        return Extraction(
            candidates=self._ordered(items), skipped=self._dedupe_skipped(got.skipped)
        )

    # -- per sentence

    def _sentence(
        self, clauses: list[_Clause], zone: str, got: _Collected, named_earlier: Sequence[str] = ()
    ) -> None:
        one_off = False
        arrived = False
        topic_third = False
        last_whose: Whose = "none"
        remember_next = False
        prev_part = _Part("", "", False, 0)
        said = len(got.semantic)  # what this sentence's statements start at
        back = remembered_back(clauses)
        if back is not None:  # "…, so keep that in mind": what was just said is to be kept
            kept, after = back
            self._remember(kept, kept.raw, zone, got)
            if after:
                self._sentence(after, zone, got, named_earlier)
            return
        skip = 0
        for n, clause in enumerate(clauses):
            if skip:
                skip -= 1
                continue
            rest = clause.raw if remember_next else _remember_rest(clause)
            remember_next = False
            if rest is not None:
                if rest == "":
                    remember_next = True
                    continue
                # What is to be remembered runs to the end of the sentence ("记住：别管我之前
                # 说的颜色，以后这款都给我发黑色的"), up to a clause that states a preference.
                more = self._remembered_after(clauses[n + 1 :], zone)
                skip = len(more)
                glue = "，" if _is_chinese(clause.raw) else ", "
                self._remember(clause, glue.join([rest, *(c.raw for c in more)]), zone, got)
                continue
            if self._continues(clause, clauses[:n], got, said):
                continue
            leftover: list[_Part] = []
            for part in clause.parts:
                if _TOPIC.match(part.norm.strip()):
                    topic_third = True
                    continue
                name = _preferred_name(part.raw, " ".join(c.raw for c in clauses))
                if name is not None:
                    self._name(part, name, got)
                    continue
                whose = own = _whose(part.norm)
                if whose == "none" and (topic_third or _CONTINUES.match(part.norm.strip())):
                    whose = "third" if topic_third else last_whose
                temporary = _is_temporary(part.norm) or (
                    one_off and not _STANDING.search(part.norm)
                )
                prefs = quiet_across(_prefs(part, zone), part, clause.parts, clauses, zone)
                prefs = prefs or language_instead(part, got.prefs)
                if not prefs and SECOND_THOUGHT.match(prev_part.norm.strip()):
                    prefs = second_thought(part)
                prev_part, read = part, bool(prefs)
                if arrived and not _STANDING.search(part.norm):
                    # the call asked for once someone gets there, said in its own clause
                    prefs = [q for q in prefs if q.negated or q.value != {"channel": "phone"}]
                if prefs:
                    for pref in prefs:
                        self._route(pref, whose, temporary, got)
                elif (
                    whose == "third"
                    # (or said of them with the subject left out: "他一米八五 平时穿XXL")
                    and (_third_party_statement(part.norm) or own == "none")
                    and not _family_statement(part.norm, got.lasting)
                ):
                    got.skipped.append((part.order, Skipped(reason="third_party", clause=part.raw)))
                elif not read:  # (a call for someone's arrival is no fact either)
                    leftover.append(part)
                if _one_off_context(part.norm):
                    one_off = True
                if ARRIVES.search(part.norm.strip(" ,，")) and not _STANDING.search(part.norm):
                    arrived = True
                if whose != "none":
                    last_whose = whose
            if leftover:
                cued = n > 0 and _standing_cue_alone(clauses[n - 1].norm)
                cued = cued or (n + 1 < len(clauses) and standing_after(clauses[n + 1].norm))
                named = [e for c in clauses[:n] for e in _entities(c.norm)] or list(named_earlier)
                self._facts(clause, leftover, got, cued_before=cued, named_before=named)

    @staticmethod
    def _corrected(
        clauses: list[_Clause], before: tuple[int, int, int], got: _Collected, zh: bool
    ) -> None:
        """A sentence correcting what the user said of themselves (`_correction`) is kept
        whole, in place of its parts ("我女儿不是4岁" alone keeps the old value, "是5岁" names
        nothing); not when it also gave a preference or a claim (those have their own slots),
        said something of a third party, was one-off or ends in a question."""
        prefs, said, skipped = before
        norm = fold(" ".join(c.norm for c in clauses))
        if (
            len(got.prefs) > prefs
            or len(got.skipped) > skipped
            or any(c.candidate.key is not None for _, c in got.semantic[said:])
            or clauses[-1].question
            or _is_temporary(norm)
            or not _correction(norm)
        ):
            return
        candidate = Candidate(
            kind="semantic",
            content=normalize_whitespace(_clean(_sentence_text(clauses, zh))),
            source_type="user_assertion",
            confidence=SELF_STATEMENT,
        )
        del got.semantic[said:]
        got.semantic.append(
            (clauses[0].order, ExtractedCandidate(candidate=candidate, clause=clauses[0].raw))
        )

    @staticmethod
    def _claims_named(clauses: list[_Clause], said: int, got: _Collected, zh: bool) -> None:
        """The claims of a sentence of several clauses, about the order, parcel or payment
        another of its clauses names (`_claimed_in_sentence`)."""
        if len(clauses) < 2:
            return
        sentence = _sentence_text(clauses, zh)
        for n in range(said, len(got.semantic)):
            order, found = got.semantic[n]
            claim = _claimed_in_sentence(found.candidate, sentence)
            if claim is not found.candidate:
                got.semantic[n] = (order, found.model_copy(update={"candidate": claim}))

    def _route(self, pref: _Pref, whose: Whose, temporary: bool, got: _Collected) -> None:
        if whose == "third":
            got.skipped.append(
                (
                    pref.order,
                    Skipped(
                        reason="third_party",
                        clause=pref.clause,
                        key=pref.key,
                        structured_value=dict(pref.value),
                    ),
                )
            )
        elif temporary:
            got.skipped.append(
                (
                    pref.order,
                    Skipped(
                        reason="temporary",
                        clause=pref.clause,
                        key=pref.key,
                        structured_value=dict(pref.value),
                    ),
                )
            )
        else:
            got.prefs.append(pref)

    def _facts(
        self,
        clause: _Clause,
        parts: list[_Part],
        got: _Collected,
        *,
        cued_before: bool = False,
        named_before: Sequence[str] = (),
    ) -> None:
        """Business claims (on the clause minus its preference parts; `named_before`: the
        entities the sentence's earlier clauses named), then self-statements and standing
        wishes (`cued_before`: the clause before was a standing cue alone)."""
        if len(parts) == len(clause.parts):
            raw, norm = clause.raw, clause.norm
        else:
            raw = "，".join(p.raw for p in parts)
            norm = read(raw)
        claim = _claim(raw, norm, named_before)
        if claim is not None:
            clause_text = clause.raw if len(parts) == len(clause.parts) else parts[0].raw
            got.semantic.append(
                (parts[0].order, ExtractedCandidate(candidate=claim, clause=clause_text))
            )
            return
        for part in parts:
            relayed = _relayed_as_self(part.norm)
            courier = passed_to_courier(part.norm, got.sentence)
            passed = passed_on(part.norm) or courier  # "let the warehouse know that …": theirs
            said = relayed if relayed is not None else passed or part.norm
            family = _family_statement(said, got.lasting)
            kept = (
                courier is not None
                or family
                or _self_statement(said)
                or _standing_wish(passed or part.norm, cued_before, first=not got.semantic)
                or _style_wish(passed or part.norm)
            )
            if (_is_question(part) and passed is None) or not kept:
                continue
            if relayed is None and passed is None and _whose(part.norm) == "third" and not family:
                got.skipped.append((part.order, Skipped(reason="third_party", clause=part.raw)))
                continue
            candidate = Candidate(
                kind="semantic",
                content=normalize_whitespace(_clean(part.raw)),
                source_type="user_assertion",
                confidence=SELF_STATEMENT,
            )
            got.semantic.append(
                (part.order, ExtractedCandidate(candidate=candidate, clause=part.raw))
            )

    @staticmethod
    def _remembered_after(clauses: list[_Clause], zone: str) -> list[_Clause]:
        """The clauses after a request to remember that belong to what is remembered: up to
        the first that states a preference of its own."""
        taken: list[_Clause] = []
        for clause in clauses:
            if any(_prefs(part, zone) for part in clause.parts):
                break
            taken.append(clause)
        return taken

    @staticmethod
    def _continues(clause: _Clause, before: list[_Clause], got: _Collected, said: int) -> bool:
        """A clause that only goes on with the statement of the clause before it ("I have two
        kids, 4 and 7 years old"): it joins that statement's content."""
        if not before or clause.question:
            return False
        last = got.semantic[-1] if len(got.semantic) > said else None
        if last is None or last[1].candidate.key or not goes_on(clause.norm, read(last[1].clause)):
            return False
        # the statement of the clause before, or one the clause before already went on with
        glue = "，" if _is_chinese(last[1].candidate.content) else ", "
        joined = last[1].candidate.content.endswith(
            glue + normalize_whitespace(_clean(before[-1].raw))
        )
        if last[1].clause != before[-1].raw and not joined:
            return False
        found = last[1]
        content = normalize_whitespace(f"{found.candidate.content}{glue}{_clean(clause.raw)}")
        got.semantic[-1] = (
            last[0],
            found.model_copy(
                update={"candidate": found.candidate.model_copy(update={"content": content})}
            ),
        )
        return True

    @staticmethod
    def _name(part: _Part, name: str, got: _Collected) -> None:
        """The name the user goes by ("call me Sam" is a name, not a phone preference)."""
        value = {"value": name}
        candidate = Candidate(
            kind="profile",
            key=NAME,
            content=_content(NAME, value, negated=False, zh=_is_chinese(part.raw)),
            structured_value=value,
            source_type="user_assertion",
            confidence=SELF_STATEMENT,
        )
        got.semantic.append((part.order, ExtractedCandidate(candidate=candidate, clause=part.raw)))

    def _remember(self, clause: _Clause, rest: str, zone: str, got: _Collected) -> None:
        """An explicit request to remember `rest` (said in `clause`)."""
        norm = read(rest)
        part = _Part(rest, norm, clause.question, clause.order)
        # Asked as a question ("can you remember that I'm vegan?"), a request to remember still
        # keeps a statement about someone ("can you note the tracking number?" makes none).
        asked = _asked_to_remember(clause.norm) and _whose(norm) != "none"
        if clause.question and _is_question(part) and not asked:
            return
        if asked:  # what is to be remembered is a statement, not the question it was asked in
            part = _Part(rest, norm, False, clause.order)
        # read whole, or else clause by clause ("以后联系我发短信，电话老是漏接": 2nd explains 1st)
        pieces = [x for x in re.split(r"[，,；;]", rest) if x.strip()]
        prefs = _prefs(part, zone, clause.raw) or [
            pref
            for piece in (pieces if len(pieces) > 1 else [])
            for pref in _prefs(_Part(piece, read(piece), clause.question, clause.order), zone)
        ]
        if prefs:
            whose = _whose(norm)
            for pref in prefs:
                self._route(
                    _Pref(
                        pref.key, pref.value, pref.negated, pref.confidence, clause.raw, pref.order
                    ),
                    whose,
                    _is_temporary(norm),
                    got,
                )
            return
        claim = _claim(clause.raw, read(clause.raw))
        if claim is not None:
            claim = claim.model_copy(update={"content": normalize_whitespace(_clean(rest))})
            got.semantic.append(
                (clause.order, ExtractedCandidate(candidate=claim, clause=clause.raw))
            )
            return
        if (
            _whose(norm) == "third"
            and not re.match(r"^\s*我(?!的?(?:" + _REL_ZH + "))", norm)
            # what the user asks to keep of their own family or household: a date, a size, a
            # taste a gift is chosen by ("帮我记住，我老婆不喜欢玫瑰"); someone else's stays theirs
            and not _family_statement(read(pieces[0]) if pieces else norm)
            and not of_family(read(pieces[0]) if pieces else norm)
        ):
            got.skipped.append((clause.order, Skipped(reason="third_party", clause=clause.raw)))
            return
        content = normalize_whitespace(_clean(rest))
        if not content or NOTHING_SAID.match(norm):
            return
        candidate = Candidate(
            kind="semantic",
            content=content,
            source_type="user_assertion",
            confidence=REMEMBER,
        )
        got.semantic.append(
            (clause.order, ExtractedCandidate(candidate=candidate, clause=clause.raw))
        )

    # -- assembling

    @staticmethod
    def _profile_candidates(prefs: list[_Pref], zh: bool) -> list[tuple[int, ExtractedCandidate]]:
        """One candidate per key (channel and quiet hours merged), negations only where no
        positive value for the same key (or aspect) was stated."""
        out: list[tuple[int, ExtractedCandidate]] = []
        # In order of first mention; keys first mentioned by the same part keep the order in
        # which they were read (a set here made that order depend on the hash seed).
        keys = sorted(
            dict.fromkeys(p.key for p in prefs),
            key=lambda k: min(p.order for p in prefs if p.key == k),
        )
        for key in keys:
            positive = [p for p in prefs if p.key == key and not p.negated]
            negative = [p for p in prefs if p.key == key and p.negated]
            merged, used = _merge(positive)
            if used:
                out.append(_asserted(key, merged, used, zh))
            out.extend(_denied(key, negative, merged, zh))
        return out

    @staticmethod
    def _ordered(items: list[tuple[int, ExtractedCandidate]]) -> list[ExtractedCandidate]:
        seen: set[tuple[str | None, str, bool]] = set()
        out: list[ExtractedCandidate] = []
        for _, item in sorted(items, key=lambda x: x[0]):
            mark = (item.candidate.key, item.candidate.content, item.negated)
            if mark not in seen:
                seen.add(mark)
                out.append(item)
        return out

    @staticmethod
    def _dedupe_skipped(items: list[tuple[int, Skipped]]) -> list[Skipped]:
        seen: set[str] = set()
        out: list[Skipped] = []
        for _, item in sorted(items, key=lambda x: x[0]):
            mark = item.model_dump_json()
            if mark not in seen:
                seen.add(mark)
                out.append(item)
        return out


# --------------------------------------------------------------------------------------------
# Profile candidates


def _merge(positive: list[_Pref]) -> tuple[dict[str, Any], list[_Pref]]:
    """The value the positive preferences of one key state together, field by field (for two
    values of a field the stronger, then the later, wins), and the preference each field came
    from, in field order."""
    merged: dict[str, Any] = {}
    used: list[_Pref] = []
    fields = sorted({f for p in positive for f in p.value})
    for field in fields:
        options = [p for p in positive if field in p.value]
        best = max(options, key=lambda p: (p.confidence, p.order))
        merged[field] = best.value[field]
        used.append(best)
    return merged, used


def _asserted(
    key: str, merged: dict[str, Any], used: list[_Pref], zh: bool
) -> tuple[int, ExtractedCandidate]:
    """The candidate for a merged value, quoting (and placed at) the first preference used."""
    first = min(used, key=lambda p: p.order)
    value: dict[str, Any] = {
        f: merged[f] for f in ("channel", "quiet_hours", "value") if f in merged
    }
    candidate = Candidate(
        kind="profile",
        key=key,
        content=_content(key, value, negated=False, zh=zh),
        structured_value=value,
        source_type="user_assertion",
        confidence=max(p.confidence for p in used),
    )
    return first.order, ExtractedCandidate(candidate=candidate, clause=first.clause)


def _denied(
    key: str, negative: list[_Pref], merged: dict[str, Any], zh: bool
) -> list[tuple[int, ExtractedCandidate]]:
    """A negated candidate per value denied, in utterance order, unless a positive value for the
    same field (aspect) of the key was stated."""
    out: list[tuple[int, ExtractedCandidate]] = []
    seen: list[dict[str, Any]] = []
    for p in sorted(negative, key=lambda p: p.order):
        if any(f in merged for f in p.value) or p.value in seen:
            continue
        seen.append(p.value)
        candidate = Candidate(
            kind="profile",
            key=key,
            content=_content(key, p.value, negated=True, zh=zh),
            structured_value=dict(p.value),
            source_type="user_assertion",
            confidence=p.confidence,
        )
        out.append(
            (p.order, ExtractedCandidate(candidate=candidate, clause=p.clause, negated=True))
        )
    return out


def _declared_zone(sentences: list[list[_Clause]]) -> str | None:
    """The one time zone the text states as the user's own (a statement of another person's,
    or two different zones, state none)."""
    zones = {
        pref.value["value"]
        for sentence in sentences
        for clause in sentence
        for part in clause.parts
        if _whose(part.norm) != "third"
        for pref in _timezone_prefs(part)
    }
    return zones.pop() if len(zones) == 1 else None
