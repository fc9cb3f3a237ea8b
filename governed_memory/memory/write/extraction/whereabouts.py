"""Where the user says they are, and the zone it gives when the text is about a time: "I'm in
Sydney, so keep the time difference in mind", "我人在柏林，别按国内时间约我". A place said with
nothing about time is a fact about the user, not a zone (`personal`)."""

from __future__ import annotations

import re

from governed_memory.memory.write.extraction.clauses import read
from governed_memory.memory.write.extraction.cues import _rx
from governed_memory.memory.write.normalize import find_timezone, normalize_timezone

# A zone asked about, with where the user is said in another clause or sentence ("之前留的时区
# 不对，我在温哥华，不是多伦多", "I moved to London last month, can you update my time zone?",
# "I'm in Sydney, so … make it Sydney morning"): the place's zone is the user's.
_ZONE_ASKED = _rx(
    r"(?:不是|不在|不再是)[^，,。]{0,4}?时间|时区|当地时间|本地时间|(?<![a-z])(?:time\s*zone|timezone|local\s+time)(?![a-z])"
    # a time asked, beside where the user is ("I'm in London — what time does your chat close?")
    r"|(?<![a-z])what\s+time\s+(?:does|do|is|will)(?![a-z])|换算成?我这边的?时间|我这边的?时间"
    # a time to agree, or the gap between the user's clock and the shop's ("约时间的话记得有时差",
    # "if you ever need to call, it's 8 hours ahead", "no daylight saving … delivery windows")
    r"|约(?:个)?时间|有时差|时差(?:问题)?|(?<![a-z])(?:\d{1,2}|a\s+few|several|\w+)\s+hours?\s+"
    r"(?:ahead|behind)(?![a-z])|(?<![a-z])(?:no\s+)?daylight\s+sav(?:ing|ings)(?![a-z])"
    # the gap in short ("2 hrs behind"), the shop's hour said as the user's ("its like 9pm for
    # me"), times the shop shows ("your timestamps keep confusing me")
    r"|(?<![a-z])\d{1,2}\s*(?:hrs?|h)\s+(?:ahead|behind)(?![a-z])"
    r"|(?<![a-z])\d{1,2}(?::\d\d)?\s*(?:am|pm)\s+(?:for|to)\s+me(?![a-z])"
    # the shop's clock set against the user's ("don't ping me at 3am your time")
    r"|(?<![a-z])\d{1,2}(?::\d\d)?\s*(?:am|pm)\s+your\s+time(?![a-z])"
    r"|(?<![a-z])time\s*stamps?(?![a-z])"
    # the times the shop gives the user read wrong on the user's clock ("so the times you give me
    # are always off")
    r"|(?<![a-z])times?\s+(?:(?:you|u)\s+(?:give|send|show|quote|tell)\s+me\s+)?(?:are|is|'re)\s+"
    r"(?:always\s+|all\s+|usually\s+|often\s+)?(?:off|wrong)(?![a-z])"
    r"|(?<![a-z])delivery\s+(?:windows?|times?)(?![a-z])"
    # the hours the user sleeps or works, or a call kept out of them ("I sleep 9am to 4pm, don't
    # ring in that window")
    r"|(?<![a-z])(?:sleep|work)s?\s+(?:from\s+)?\d{1,2}(?::\d\d)?\s*(?:am|pm)?\s*(?:to|-|until|till)"
    r"\s*\d{1,2}(?::\d\d)?\s*(?:am|pm)(?![a-z])"
    r"|(?<![a-z])(?:don'?t|do\s+not|never)\s+(?:call|ring|phone)\s+(?:me\s+)?(?:in|during|within)"
    r"\s+(?:that|this|those|these)\s+(?:window|hours|times?)(?![a-z])"
    # hours kept quiet, said beside where the user is ("no calls between 9pm and 7am please, I'm
    # in Sydney", "quiet hours should be 10pm-6am, I'm in London"): the user's own clock
    r"|(?<![a-z])(?:quiet\s+hours|do\s+not\s+disturb|dnd)(?![a-z])|免打扰|勿扰"
    r"|(?<![a-z])(?:no|don'?t|do\s+not|never)\s+(?:(?:push|phone|sms|marketing|more|any)\s+)?"
    r"(?:calls?|texts?|messages?|notifications?|notifs?|e-?mails?|pings?|alerts?|updates?|anything"
    r"|(?:call|text|ring|message|email|ping|contact|disturb)\s+me)"
    r"\s+(?:between|before|after|until|till|from)\s+\d"
    # the same in Chinese, said beside where the user is ("晚上11点以后别打电话，我在伦敦")
    r"|[0-9一二三四五六七八九十两]+点(?:半)?(?:以后|之后|以前|之前|后|前)[^，,。]{0,8}?"
    r"(?:别|不要|不用|勿)(?:再)?(?:给我)?(?:打|发|联系|推送|打扰)"
    # a range of hours kept quiet ("我在悉尼，晚上十点到早上八点之间别给我发推送")
    r"|[0-9一二三四五六七八九十两]+点(?:半)?(?:到|至|-|~)[^，,。]{0,6}?[0-9一二三四五六七八九十两]+点(?:半)?"
    r"(?:之间|这段时间|期间)?(?:都|也)?(?:别|不要|不用|勿)(?:再)?(?:给我)?(?:打|发|联系|推送|打扰)"
    # the user's night kept quiet, beside where they are ("我在悉尼，别大半夜给我发消息")
    r"|(?:别|不要|不用|勿)(?:再)?(?:在)?(?:我(?:这边|那边)?的?)?(?:大)?(?:半夜|深夜|凌晨)(?:里)?(?:给我)?"
    r"(?:打|发|联系|推送|打扰)"
    r"|(?:大)?(?:半夜|深夜|凌晨)(?:里)?(?:别|不要|不用|勿)(?:再)?(?:给我)?(?:打|发|联系|推送|打扰)"
    # the gap said in hours, or the user's night when the shop works ("跟国内差6到7个小时",
    # "我这边可能还是半夜", "your 9am is my middle of the night", "anything time-sensitive")
    r"|(?:差|比[\u4e00-\u9fff]{1,6}(?:慢|快|晚|早))(?:了)?\s*[0-9一二两三四五六七八九十几]+(?:\s*(?:到|-|~)\s*[0-9一二三四五六七八九十]+)?\s*个?(?:多)?小时"
    r"|我这边(?:可能|应该|估计)?(?:还是|是|正好|刚好|才|都|已经)*(?:半夜|凌晨|深夜|大半夜)"
    r"|(?<![a-z])(?:your\s+\d{1,2}(?::\d\d)?\s*(?:am|pm)|middle\s+of\s+(?:the|my)\s+night"
    r"|time[- ]sensitive)(?![a-z])"
    r"|(?<![a-z])(?:my\s+time|call\s+(?:times?|slots?|windows?)|time\s+difference|my\s+local"
    r"|my\s+\d{1,2}(?::\d\d)?\s*"
    r"(?:am|pm)|(?:schedul|book|arrang)(?:e|es|ing)?\s+(?:(?:the|a|an|my|any)\s+)?(?:callbacks?|calls?"
    r"|deliver(?:y|ies)))(?![a-z])"
    # (a word before "time" that names no place leaves "the time difference" to be read)
    r"|(?<![a-z])(?!(?:the|a|an|my|your|our|any|what|which|this|that|same|local|of|in|at|on|by"
    r"|for|first|next|last|every|some|no|call|delivery|business|office|working|opening)\s)"
    r"(?P<city>[a-z]+)\s+(?:morning|afternoon|evening|night|hours|time(?!\s*zone))(?![a-z])"
    r"|按(?:照)?(?P<zh_city>[\u4e00-\u9fff]{2,4}?)(?:的)?时间"
    r"|按(?:照)?[\u4e00-\u9fff]{0,6}?(?:这边|那边|当地)(?:的)?(?:时间)?(?:算|来|[，,。！!]|$)"
    r"|时间(?:得|要|请|都|就|应该|最好)?按(?:照)?(?P<zh_city_after>[\u4e00-\u9fff]{2,4}?)(?:这边|那边)?(?:的)?(?:时间)?(?:算|来)"
)
WHERE_I_AM = re.compile(
    r"(?<![a-z])(?:(?:i'm|im|i am|we're|we are)\s+(?:now\s+|actually\s+|currently\s+|based\s+"
    r"|living\s+|located\s+|staying\s+|back\s+)*|(?:i|we)\s+(?:now\s+|actually\s+|currently\s+"
    r"|still\s+)*(?:live|reside)\s+)in\s+(?P<place>[^\W\d_](?:[^\W\d_]|[ .'\-]){1,25}?)"
    r"(?=\s*[,.;!?)(—–]|\s*$|\s+(?:now|so|and|but|not|for|these|at|btw|fyi|though|atm|currently|when"
    r"|pls|please)"
    r"(?![a-z]))"
    # a coast ("I'm on the east coast (NYC)")
    r"|(?<![a-z])(?:i'm|im|i am|we're|we are)\s+(?:now\s+|actually\s+|currently\s+|based\s+)*on\s+"
    r"(?:the\s+)?(?P<coast>east|west)\s+coast(?![a-z])"
    # where the user works ("im a nurse on night shifts in chicago", "I work nights in Perth")
    r"|(?<![a-z])(?:(?:i'm|im|i am)\s+an?\s+(?:[a-z]+\s+){1,5}?|i\s+work\s+(?:[a-z]+\s+){0,3}?)"
    r"in\s+"
    r"(?P<working>[a-z][a-z .'\-]{1,25}?)(?=\s*[,.;!?)(—–]|\s*$|\s+(?:so|and|but)(?![a-z]))"
    r"|(?<![a-z])(?:moved|relocated)\s+(?:back\s+)?to\s+(?P<moved>[a-z][a-z .'\-]{1,25}?)"
    r"(?=\s*[,.;!?)(]|\s*$|\s+(?:last|this|in|a|and|so|but|recently)(?![a-z]))"
    r"|(?:(?:我|本人)(?:人|现在|目前|已经|其实|这边|们|长期|一直|平时|常年|上个月|上周|去年|刚|最近)*"
    r"|(?<=[，,])\s*(?:现在|目前|上个月|上周|最近|已经|刚|人)+)(?:在|住在?|常住(?:在)?|搬到了?|搬去了?|搬回(?:到)?了?|到了|常驻)"
    r"(?P<zh>[\u4e00-\u9fff]{2,7}?)(?=[，,。！!？?\s]|了|啦|呢|啊|呀|哈|哦|不是|而不是|这边|那边|上班|工作|读书|上学|生活|定居|住|$)"
)
#: "按那边时间来": the place said before.
_THERE = frozenset({"那边", "这边", "当地", "本地", "那里", "这里", "我这边", "我那边"})
_NOT_HERE = re.compile(r"(?:不是|not|而不是|instead\s+of)\s*$")


def zone_where_i_am(norm: str, named: bool = False) -> str | None:
    """The zone of where the user says they are, in a text that asks about a zone (the last
    place said: "I said I'm in London but I'm actually in Dublin"), or that names a zone ("I'm in
    Berlin, so Central European time": the place says it more exactly; `named`: the text as
    written names one, as an abbreviation folding hides: "I'm in Singapore, so SGT")."""
    if (
        not named
        and find_timezone(norm) is None
        and not any(
            not (m.group("city") or m.group("zh_city") or m.group("zh_city_after"))
            or (m.group("zh_city") or m.group("zh_city_after")) in _THERE
            or normalize_timezone(m.group("city") or m.group("zh_city") or m.group("zh_city_after"))
            is not None
            for m in _ZONE_ASKED.finditer(norm)
        )
    ):
        return None
    found = None
    for m in WHERE_I_AM.finditer(norm):
        coast = f"{m.group('coast')} coast" if m.group("coast") else None
        place = m.group("place") or m.group("working") or m.group("moved") or m.group("zh")
        place = (place or coast or "").strip()
        if _NOT_HERE.search(norm[max(0, m.start() - 8) : m.start()]):
            continue
        found = _zone_of_place(place) or found
    return found


def _zone_of_place(place: str) -> str | None:
    """The zone of a place, or of its last words when a country leads it ("美国西雅图")."""
    zone = normalize_timezone(place)
    if zone is None and len(place) > 3 and "\u4e00" <= place[0] <= "\u9fff":
        zone = normalize_timezone(place[2:]) or normalize_timezone(place[3:])
    return zone


def zone_of_where_i_am(text: str) -> str | None:
    """`zone_where_i_am` of a message as written."""
    return zone_where_i_am(read(text), find_timezone(text) is not None)
