"""How a delivery is met: someone getting to the user's door, the call asked for then or before
it, and what the courier is told. A call to meet a delivery ("call me when you get here",
"always phone me before coming", "tell your delivery people to text me on arrival") is how
deliveries are met, never the channel the user is told things by (`preferences`); said for every
delivery, it is a standing wish (`wishes`)."""

from __future__ import annotations

import re

#: Who gets there, and getting there ("when the courier gets here", "once you're downstairs").
_COMER = (
    r"(?:when|once|as soon as)\s+(?:you|u|he|she|they|the\s+(?:courier|driver|rider)"
    r"|your\s+(?:driver|courier))"
)
_COMES = (
    r"\s*(?:(?:gets?|arrives?|reach(?:es)?)(?:\s+(?:here|there))?"
    r"|(?:\s+is|\s+are|'s|'re|r)\s+(?:here|there|downstairs|outside|at\s+the\s+(?:gate|door"
    r"|building)))(?![a-z])"
)
#: Someone getting to the user's door or building: the moment a one-off call is asked for.
ON_ARRIVAL = re.compile(
    r"(?:(?:送|快)?到(?:了|楼下|门口|家门口|小区|公司|单元楼?下?)*(?:的时候|时)?|来了)(?:以后|之后|后)?了?"
    r"\s*(?:都)?(?:就|再|先|麻烦|请)?"
    r"\s*(?:给我|打我|打给我|call|联系我|打电话|电话)"
    rf"|(?<![a-z]){_COMER}{_COMES}"
    # minutes away ("call me when they're 10 min away")
    rf"|(?<![a-z]){_COMER}(?:'re|'s|\s+is|\s+are)\s+(?:about\s+)?\d+\s*(?:min(?:ute)?s?|hours?)\s+away"
    # with no one named ("call when outside", "ring me when here")
    r"|(?<![a-z])(?:call|ring|phone|text)\s+(?:me\s+)?(?:when|once)\s+(?:you(?:'re|\s+are)\s+)?(?:outside"
    r"|here|downstairs|at\s+the\s+(?:gate|door|building))(?![a-z])"
    # a call asked ahead of a visit ("call me 30 min before he shows up")
    r"|(?<![a-z])(?:call|ring|phone|text)\s+me\s+(?:\d+\s*(?:min(?:ute)?s?|hours?)|an?\s+hour|half\s+an"
    r"\s+hour)\s+(?:before|ahead\s+of)\s+(?:he|she|they|you|the\s+\w+)\s+(?:shows?\s+up|arrives?"
    r"|comes?|gets?\s+(?:here|there))"
    # a call the courier is to make, asked through the user ("告诉送货师傅到小区东门打我电话",
    # "ask the delivery guy to call my mobile instead of buzzing")
    r"|(?:告诉|转告|跟|和|让|叫|麻烦)(?:一下)?(?:送货|送件|配送|派件|快递)?(?:员|小哥|师傅|骑手|司机)"
    r"[^。]{0,16}?"
    r"(?:打(?:我)?(?:的)?(?:电话|手机)|给我打|打给我)"
    r"|(?<![a-z])(?:ask|tell|get)\s+(?:the\s+|your\s+)?(?:delivery\s+)?(?:guys?|drivers?|couriers?"
    r"|riders?|person|people|man|woman)\s+to\s+(?:always\s+)?(?:call|ring|phone)(?![a-z])"
    # a call asked before the delivery ("always call 30 min before arriving", 送货前先打电话)
    r"|(?<![a-z])(?:call|ring|phone)\s+(?:me\s+)?(?:\d+\s*(?:min(?:ute)?s?|hours?)\s+|an?\s+hour\s+"
    r"|half\s+an\s+hour\s+)?(?:before|ahead\s+of)\s+(?:arriving|delivering|coming|delivery|you\s+come)"
    r"|(?:送货|送件|配送|派送|上门|送)(?:之?前|以前)[^，,。]{0,4}?(?:先)?(?:打(?:个)?(?:我的?)?(?:电话|手机)|给我打)"
)
#: How the courier is to reach the user, told to the courier ("tell your delivery people to always
#: text me on arrival"): how deliveries are met, whatever the channel.
TO_COURIER = re.compile(
    r"(?<![a-z])(?:ask|tell|get|have)\s+(?:the\s+|your\s+)?(?:delivery\s+)?(?:guys?|drivers?|couriers?"
    r"|riders?|person|people|men|man|woman)\s+to\s+(?:always\s+)?(?:call|ring|phone|text|message"
    r"|whatsapp|sms)(?![a-z])"
)
#: Someone getting there, said in a clause of its own ("when the courier gets to the gate, give
#: me a call"): the call in the clauses after it is for that moment (`RuleExtractor._facts`).
ARRIVES = re.compile(
    rf"^{_COMER}\s*(?:gets?|arrives?|reach(?:es)?|(?:\s+is|\s+are|'s|'re)\s+(?:here|there"
    r"|downstairs|outside|at\s+the))(?![a-z])"
    # what follows is passed on to the courier ("请转告快递 送货前半小时打个电话", "let the courier
    # know the buzzer is broken, just call when outside")
    r"|^(?:请|麻烦|帮我)?(?:转告|告诉|跟|和)(?:一下)?(?:快递|送货|配送|派送|骑手|司机)(?:员|小哥|师傅)?(?:说)?"
    r"|^(?:pls\s+|please\s+)?(?:tell|ask|let)\s+(?:the|your)\s+(?:courier|driver|rider|delivery"
    r"\s+(?:guy|person|driver))(?:\s+know(?![a-z])|$)"
    r"|(?:快递|骑手|师傅|快递员|外卖|司机|你)?(?:送)?到(?:了|楼下|门口|小区|小区门口)+(?:的时候|时)?$"
)
