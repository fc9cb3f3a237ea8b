"""Standing wishes about how the user is served (a carrier, a delivery time kept free, the
packaging, what is recommended, how replies are written): their cues, on folded text as in
`cues`, and their readers. A wish is lasting only when said so ("以后", "from now on", a recurring
time); a wish for this once, a wish recalled or not wanted, a shop's habit complained of and a
wish that only points back at what was just said are none."""

from __future__ import annotations

import re

from governed_memory.memory.write.extraction.cues import _rx, _w
from governed_memory.memory.write.extraction.personal import _THIRD_SUBJECT_EN, _THIRD_SUBJECT_ZH

#: A recurring time of day or week ("周末", "晚上", "早上8点前").
_SLOT_ZH = (
    r"(?:周末|周六|周日|星期[六天日一二三四五]|工作日|晚上|早上|上午|下午|中午|白天|夜里"
    r"|[0-9一二三四五六七八九十]+点(?:以前|之前|前|以后|之后|后))"
)

#: The carriers people name (folded).
_CARRIER = (
    r"(?:dhl|ups|fedex|dpd|hermes|evri|royal\s+mail|usps|tnt|gls|yodel|parcelforce|aramex"
    r"|canada\s+post|australia\s+post|sf\s+express|the\s+(?:local\s+)?post(?:\s+office)?)\b"
)

# A standing wish about how the user is served, said as such: a standing cue ("以后", "from now
# on", "always") and a way of shipping, packing, leaving, invoicing or replying ("以后发货都用顺丰",
# "from now on leave my parcels with the concierge", "always gift-wrap my orders").
_SERVICE_ZH = re.compile(
    r"(?:发货|发快递|寄|送货|送到|配送|派送|放(?:在|到)?|包装|打包"
    r"|(?:别|不要|不用)(?:再)?(?:用|放|装|给我)?(?:塑料袋|泡沫|气泡膜)|回复|回答|开票|开发票|发票|用.{1,6}(?:快递|发)"
    r"|走.{1,6}(?:快递|物流)|[0-9SMLXsmlx]码|尺码|送(?:到)?公司|工作日送|周末送|送上门|上门"
    r"|次日达|当日达|隔日达|(?:快递|物流)(?:都|一律)?(?:不要|别用|不用)"
    r"|(?:发|用|走)(?:顺丰|京东|中通|圆通|韵达|申通|邮政|EMS|极兔|德邦|百世|天天)"
    # when deliveries come, what is recommended ("尽量安排晚上7点以后送", "别给我推荐香菜味的")
    # a call before every delivery ("送货前先打电话")
    r"|(?:送货|送件|配送|派送|上门|送)(?:之?前|以前)[^，,。]{0,4}?(?:先)?(?:打|给我打)"
    r"|(?:送|快)?到了?[^，,。]{0,2}?(?:都)?(?:先)?(?:打我电话|给我打电话|打电话)"
    r"|安排[^，,。]{0,8}送|[0-9一二三四五六七八九十]+点(?:以后|之后|后|以前|之前|前)送"
    r"|(?:别|不要|不用|少|多|只|优先)(?:再)?(?:给我)?推荐|给我推荐|优先(?:给我)?推(?![送卸脱迟辞托给诿销广])|(?:别|不要|不用)再?(?:给我)?推(?![送卸脱迟辞托给诿销广])"
    r"|推荐(?:的时候|时|的东西|的)?[^，,。]{0,8}?(?:按|照|避开|别|不要|都要|只要)"
    r"|(?:别|不要|不能|勿)(?:送|派送|配送))"
)
_SERVICE_EN = re.compile(
    _w(
        r"(?:ship|send|deliver|leave|drop|wrap|gift-wrap|pack|package|reply|respond|answer|write"
        r"|invoice|bill|put)\w*\s+(?:\w+\s+){0,3}?(?:my|me|everything|all|it|them|replies|in|inside"
        r"|into)"
        # a delivery's time of week or day, singular too ("I prefer weekend delivery"), prices
        # shown in the user's currency, a parcel handed over, glass boxed twice, a warranty taken
        r"|(?:weekend|weekday|morning|evening|afternoon)\s+deliver(?:y|ies)"
        r"|(?:show|display|quote|list)\w*\s+(?:\w+\s+){0,2}?prices?\s+in\s+[a-z]"
        r"|hand\w*\s+(?:it|them|parcels?|packages?)\s+(?:to|over)|double[- ]box\w*"
        r"|(?:extended\s+)?warrant(?:y|ies)"
        # a size, an address, what is recommended, when deliveries come ("size M from now on",
        # "home address only from now on", "my deliveries to evenings")
        r"|size\s+(?:x{0,2}[sl]|m|\d{1,2})|(?:home|work|office)\s+address|recommend\w*|suggest\w*"
        r"|recs|deliveries|packaging|box(?:es)?|(?:to|at)\s+(?:my\s+)?home\b"
        r"|signature[- ]required|(?:require|need)\w*\s+(?:a\s+)?signature"
        # a delivery slot, the bags or slips an order comes with ("the weekend slot", "in paper
        # bags", "the receipt left out")
        r"|(?:delivery|weekend|weekday|morning|evening|afternoon|time)\s+slots?"
        # a carrier ("always ship with DHL", "Always DPD please")
        rf"|(?:ship|send|deliver|post)\w*\s+(?:\w+\s+){{0,2}}?(?:with|via|by|through|using)\s+{_CARRIER}"
        rf"|(?<=always\s){_CARRIER}|(?:use|using)\s+{_CARRIER}"
        r"|(?:paper|plastic|reusable|cloth)\s+bags?|receipts?\s+(?:left\s+out|removed)|price\s+tags?"
        r"|bubble\s+wrap|(?:air\s+)?pillows|padding|packing\s+(?:peanuts|material)"
        r"|gift\s+(?:orders?|receipts?|notes?|cards?|messages?)"
        # how the user pays ("I'd rather pay with PayPal … for future orders")
        r"|pay\w*\s+(?:with|by|via|through|using)\s+(?:paypal|apple\s+pay|google\s+pay|klarna"
        r"|(?:my\s+)?(?:credit|debit)\s+card|card|cash|bank\s+transfer|alipay|wechat\s+pay)"
        r"|deliver\w*\s+(?:before|after|on|at|during)|substitut(?:ions?|es?)"
        # how to be let know at the door, the name a parcel carries ("always ring the bell twice",
        # "use the name Alex Moreno on the parcel")
        r"|(?:ring|knock|buzz|press)\w*\s+(?:on\s+)?(?:the\s+)?(?:door\s*bell|bell|door|buzzer|intercom)"
        r"|(?:use|put|write)\s+the\s+name\s+[a-z][\w' -]{1,40}?\s+on\s+(?:the\s+)?(?:parcels?"
        r"|packages?|labels?|box(?:es)?)"
        # a call before every delivery ("always call 30 min before arriving")
        r"|(?:call|ring|phone|text)\w*\s+(?:me\s+)?(?:\d+\s*(?:min(?:ute)?s?|hours?)\s+|an?\s+hour\s+"
        r"|half\s+an\s+hour\s+)?(?:(?:before|ahead\s+of)\s+(?:arriving|delivering|coming|delivery"
        r"|you\s+come|dropping)|when\s+(?:the\s+|your\s+)?(?:driver|courier|rider|delivery\s+\w+)\s+"
        r"(?:arrives|gets\s+(?:here|there)|is\s+(?:here|outside)|comes)|on\s+arrival)"
        r"|(?:leave|drop)\w*\s+(?:\w+\s+){0,3}?(?:with|at|in)\s+(?:the\s+)?(?:concierge|neighbou?rs?"
        r"|reception|front\s+desk|doorman|porter|security|locker|mailroom|back\s+door|side\s+door)"
        # where parcels are left out in the open ("never leave parcels outside", "on the
        # doorstep")
        r"|(?:leave|drop|put)\w*\s+(?:\w+\s+){0,3}?(?:outside|on\s+the\s+(?:doorstep|porch|step|steps"
        r"|mat)|at\s+(?:the|my)\s+(?:door|gate)|in\s+the\s+(?:porch|bin|garden))"
        # the way into the user's place ("have the driver use the side gate from now on")
        r"|(?:use|come\s+(?:in\s+)?(?:through|via|by|round\s+to))\s+the\s+(?:side|back|rear|front|garden"
        r"|service)\s+(?:gate|door|entrance)"
        # what comes by post ("stop mailing paper statements")
        r"|(?:paper\s+)?(?:statements|invoices|bills|catalogues?|catalogs?)\b(?=.{0,30}?(?:mail|post))"
        r"|(?:mail|post)\w*\s+(?:\w+\s+){0,2}?(?:paper\s+)?(?:statements|invoices|bills)"
        # what comes in the parcel besides the order ("no more perfume samples", "flyers")
        r"|(?:no|any|skip|send\w*|put\w*|includ\w*|add\w*)\s+(?:\w+\s+){0,3}?(?:samples|flyers|leaflets|brochures?|catalogues?|catalogs?|inserts)(?!\s+(?:left|in\s+stock|available))"
    )
)
_STANDING_WISH_CUE = _rx(
    r"以后|今后|往后|从现在起|从今以后|每次|一律|统一|默认|都希望|一向|尽量"
    # no more of it: said once, meant from now on ("不要再给我推荐母婴用品了", "…就别推了")
    r"|(?:不要|别|不用|不必)再|再也(?:别|不要)|(?:就|都)?(?:别|不要)推(?:荐)?了|永远(?:不要|别|不)"
    # a carrier refused is refused for good ("不要用中通发我这边")
    r"|(?:不要|别)(?:再)?(?:用|走|发)(?:顺丰|京东|中通|圆通|韵达|申通|邮政|EMS|极兔|德邦|百世|天天)"
    # a locker or pickup point parcels are never to go to ("不要放快递柜"), as "never leave
    # parcels outside"
    r"|(?:不要|别|千万别|千万不要|不能)(?:再)?(?:放|扔|丢|送)(?:到|在)?(?:快递柜|丰巢|驿站|菜鸟驿站"
    r"|自提点|代收点|快递点)"
    r"|(?:天|周|月|号)(?:开始|起)(?!来|床|飞)"
    # every carrier but one refused ("除了顺丰其他快递都不要")
    r"|除了[^，,。]{1,6}?(?:以外|之外)?(?:其他|别的|其它)(?:的)?(?:快递|物流)?(?:都|一律)?(?:不要|别用|不用)"
    # what never to send the user ("别给我寄纸质发票"; "别放发票" alone is a gift's, once)
    r"|(?:不要|别|不用)给我(?:寄|放|附|塞|夹)(?:纸质的?|纸)?(?:发票|小票|传单|宣传单|宣传册|塑料袋"
    r"|赠品|贺卡|卡片)"
    # a recurring time kept free of deliveries ("周末别送", "晚上8点以后不要派送")
    rf"|{_SLOT_ZH}(?:都|也|一律)?(?:别|不要|不能|勿)(?=送|派送|配送|上门)"
    rf"|(?:别|不要|不能|勿)(?:在)?{_SLOT_ZH}(?=送|派送|配送|上门)",
    _w(
        r"(?:don't|do not|never|no|please don't"
        r"|(?:i'd|i would|id)\s+rather\s+not(?:\s+(?:get|have))?)"
        r"\s+(?:deliver\w*|deliveries|drop[- ]?offs?)\s+"
        r"(?:before|after|on|at|during|in the)\s+(?:\d{1,2}(?:[:.]\d{2})?\s*(?:am|pm)?|weekends"
        r"|the weekend|evenings|mornings|nights|(?:mon|tues|wednes|thurs|fri|satur|sun)days)"
    )
    + "|"
    # a recurring time asked for ("prefer weekend deliveries pls")
    + _w(r"(?:i\s+)?prefer\s+(?:weekend|weekday|morning|evening|afternoon)\s+deliver(?:y|ies)")
    + "|"
    + _w(
        r"from now on|going forward|in (?:the )?future|always|every time|by default|henceforth"
        r"|whenever\s+(?:there(?:'s|\s+is)\s+a\s+choice|you\s+can)"
        r"|for (?:all |any )?(?:my |our )?future (?:orders|deliveries|purchases|parcels|packages)"
        # as far as it can be, on every order, whatever is sent ("no plastic packaging if you
        # can avoid it", "skip the air pillows on my orders", "double-box anything glass you
        # send me", "for every delivery")
        r"|if (?:you|u) can (?:avoid|help) it|where(?:ver)? possible|whenever possible"
        r"|(?:on|for|with|in) my orders|for every (?:delivery|order|parcel|package)"
        r"|(?:anything|everything|whatever) (?:\w+ )?(?:you|u) (?:send|ship) (?:me|to me)"
        r"|in every (?:package|order|parcel|box|delivery)"
        # what is never to come ("I never want substitutions", "don't send me anything with
        # palm oil in it, ever")
        r"|i (?:never|don't ever|do not ever) want"
        r"|i\s+(?:don't|do\s+not)\s+want\b.*\bever(?=\s*[.!,;]|\s*$)"
        # no more of it ("stop sending me the paper catalogue", "no substitutions, ever",
        # "never leave my parcels with neighbours")
        r"|stop (?:sending|shipping|delivering|leaving|putting|including|adding|mailing|posting)"
        r"|never (?:leave|send|ship|deliver|put|include|add|use|substitute)"
        # where parcels, plural, are never to go ("please don't leave parcels with the neighbours")
        r"|(?:don't|do not)\s+(?:leave|drop|put)\s+(?:my\s+|any\s+)?(?:parcels|packages"
        r"|deliveries|boxes)"
        r"|(?<=,\s)ever(?=\s*[.!,;—-]|\s*$)|(?<=\s)ever(?=\s*[.!;—-]|\s*$)"
        r"|^(?:please\s+|pls\s+|plz\s+)?(?:i\s+)?(?:don't|do\s+not|never|stop|no)\b.*\b(?:anymore"
        r"|any\s+more"
        r"|no\s+longer)"
        r"|no\s+more\s+(?:[\w-]+\s+){0,2}?(?:suggestions|recommendations|recs|samples|catalogues?"
        r"|catalogs?|flyers|leaflets|calls|texts)"
        r"|i\s+(?:don't|do\s+not)\s+want\s+any"
        r"|(?:don't|do not|never) send me anything(?! (?:on|via|by|through|over|to) )"
        # a carrier refused is refused for good ("don't ship with dhl", "don't use Royal Mail")
        rf"|(?:don't|do\s+not)\s+(?:use|ship\s+(?:with|via|by)|send\s+(?:it\s+)?(?:with|via|by))\s+"
        rf"{_CARRIER}"
        r"|stop (?:recommending|suggesting)"
        r"|whenever (?:possible|you can)|wherever possible|works? best for me"
        r"|suits? me (?:far |much |a lot )?(?:better|best)|as a rule"
        r"|default my|for (?:all|every) (?:of )?my (?:orders|deliveries|parcels|packages)"
    ),
)

# How the user wants to be written to, said to the agent: a style of reply is a standing wish
# without a standing cue ("keep your replies short, I read on my watch", "回复简短点",
# "用中文回复我就行", "no jargon please"). A wish for this once ("this time", "这次") is not.
_STYLE_EN = _rx(
    _w(
        r"(?:keep|make)\s+(?:your\s+|the\s+|all\s+|any\s+)?(?:replies|reply|answers?|responses?"
        r"|messages?|e-?mails?|texts?|explanations?|updates?|it|them|things)\s+(?:\w+\s+)?"
        r"(?:short|brief|concise|simple|plain|to the point|formal|casual|polite|jargon-free)"
        r"|(?:reply|respond|answer|write|talk|speak|explain(?: things)?)(?: to me)?\s+"
        r"(?:in|with|using)\s+(?:english|chinese|mandarin|cantonese"
        r"|plain (?:english|language|words)"
        r"|simple (?:english|language|words|terms)|bullet points|short (?:sentences|messages))"
        r"|(?:short|brief|concise)\s+(?:replies|answers|responses|messages)\s+(?:please|pls)"
        r"|(?:no|skip the|don't use|do not use|avoid)\s+(?:jargon|emojis?|technical terms)"
    )
)
_STYLE_ZH = re.compile(
    r"(?:回复|回答|回消息|回我|说话|解释|消息|说明)[^，。,.!！?？]{0,4}"
    r"(?:简短|简单|简洁|精简|短一?点|短一些|短些|别太长|不要太长|直接点|说重点|通俗|口语)"
    r"|(?:用|说)(?:中文|英文|英语|普通话|粤语)(?:回复|回答|跟我说|和我说|同我讲|沟通|交流|回)"
    r"|长话短说|(?:别|不要)(?:用|说)(?:专业术语|术语|表情)"
)
_STYLE_BLOCK = _rx(r"这次|这一次|这回|这单|今天|刚才", _w(r"this time|this once|today|for now"))


def _style_wish(norm: str) -> bool:
    """How the user wants replies written (`_STYLE_EN`, `_STYLE_ZH`): not someone else's, not
    for this once, not a question (the caller's), and not too long to be one wish."""
    s = norm.strip()
    if not s or len(s) > 90 or _STYLE_BLOCK.search(s):
        return False
    if _THIRD_SUBJECT_ZH.match(s) or _THIRD_SUBJECT_EN.match(s):
        return False
    return bool(_STYLE_EN.search(s) or _STYLE_ZH.search(s))


def _standing_cue_alone(norm: str) -> bool:
    """A clause that is a standing cue and little else ("Whenever possible", "From now on",
    "以后"): it makes the clause after it standing."""
    s = norm.strip(" ,，。.!！")
    m = _STANDING_WISH_CUE.search(s)
    # (or the cue whole, however long: "For all my future deliveries")
    short = len(s.split()) <= 3 and len(s) <= 20
    # (a wish for this once is no cue: "这单先别放快递柜了，放门口就行")
    whole = short or (m is not None and (m.group() == s or bool(_EVERY_ORDER.fullmatch(s))))
    return bool(s) and m is not None and whole and not _ONCE.search(s)


#: A standing cue naming what it holds for ("Every order from now on", "for all deliveries
#: going forward", 以后每一单).
_EVERY_ORDER = re.compile(
    r"(?:for\s+)?(?:every|each|all|any)\s+(?:(?:of\s+)?my\s+)?(?:orders?|deliver(?:y|ies)|parcels?"
    r"|packages?|purchases?)\s+(?:from\s+now\s+on|going\s+forward|in\s+(?:the\s+)?future)"
    r"|for\s+(?:every|each|all|any)\s+(?:(?:of\s+)?my\s+)?(?:orders?|deliver(?:y|ies)|parcels?|packages?"
    r"|purchases?)"
)


#: A clause after a wish that makes it standing ("放门口就行，每次都这样哈", "…, that goes for
#: every delivery").
_STANDING_AFTER = re.compile(
    r"^\s*(?:以后|往后|今后|每次|每回|一直)?(?:都|也)?(?:这样|照这样|按这个来)(?:哈|吧|啊|呀|哦)?[\s。！!]*$"
    r"|^\s*(?:that|this|same)\s+(?:goes|applies)\s+for\s+(?:every|all|any)(?![a-z])"
    # ("…, that's for all my deliveries")
    r"|^\s*(?:that's|that\s+is|this\s+is|it's)\s+for\s+(?:all|every|each|any)\s+(?:of\s+)?(?:my\s+)?"
    r"(?:deliveries|orders|parcels|packages|delivery|order)[\s.!]*$"
    r"|^\s*(?:every|each)\s+(?:single\s+)?time[\s.!]*$"
    r"|^\s*(?:(?:just\s+)?so\s+(?:you|u)\s+know\s+|fyi\s+)?for\s+(?:all\s+|any\s+)?(?:my\s+)?"
    r"(?:future|next)\s+(?:orders|deliveries|purchases)[\s.!]*$"
)


def standing_after(norm: str) -> bool:
    return bool(_STANDING_AFTER.match(norm))


#: What is not to be suggested to the user ("不要给我推荐香菜味的零食", "don't recommend me
#: anything in pink"): suggestions go on, so a refusal of them does too, said as the user's
#: first word on the matter (`_standing_wish`). Not a pick for this once ("don't suggest
#: the red one", "… me a cheaper one"); "别推荐了" alone names nothing (`_NOTHING_NAMED`).
_REFUSED_SUGGESTION = _rx(
    r"(?:别|不要|不用|甭)(?:再)?(?:给我)?推荐",
    _w(
        r"(?:stop|quit|don't|do not|never)\s+(?:keep\s+)?(?:recommending|suggesting|recommend"
        r"|suggest)(?!(?:\s+me)?\s+(?:a|an|the|this|that|something|some|any)\s+(?:\w+\s+)?"
        r"(?:one|good|nice|better|cheaper|similar)(?![a-z]))"
    ),
)


def _standing_wish(norm: str, cued_before: bool = False, *, first: bool = False) -> bool:
    """A standing wish about how the user is served (see `_SERVICE_ZH`): not someone else's
    ("我同事说以后都寄顺丰"), not a grant (a refund, a discount, a skipped check: the detectors'),
    and not too long to be one wish. Its standing cue may be the clause before it, alone
    (`cued_before`: "Whenever possible, please send ..."); a refusal of suggestions is its own
    when it is the user's `first` statement (after one, it is what that one means, `goes_on`)."""
    s = norm.strip()
    bare = _STANDING_WISH_CUE.search(s)
    if (
        bare is not None
        and bare.group() == s.strip(" ,，。.!！")
        and bare.group().startswith(("for ", "from ", "going ", "in ", "whenever", "moving "))
    ):
        return False  # the cue alone ("For all my future deliveries"): the clause after says it
    cued = cued_before or _STANDING_WISH_CUE.search(s) or (first and _REFUSED_SUGGESTION.search(s))
    if not s or len(s) > 90 or not cued or _CLAIM_WISH_BLOCK.search(s):
        return False
    if _THIRD_SUBJECT_ZH.match(s) or _THIRD_SUBJECT_EN.match(s) or _EARLIER_WISH.search(s):
        return False
    if _BY_WHAT_WAS_SAID.search(s) or _HABIT_COMPLAINED.search(s):
        return False
    if _ONCE.search(s) and not _STANDING_FOR_GOOD.search(s):
        return False  # "这个周末别送", "今天下午3点以后别送": this once
    if _PITCH.search(s):
        return False  # "stop sending me promo emails": an opt-out for marketing, not a memory
    if _STANDING_AFTER.match(s):
        return False  # "…, that's for all my deliveries": the cue of the wish before it
    if _NOTHING_NAMED.match(s):
        return False  # "别再推了": what is not to be pushed (a product, a notification) unsaid
    return bool(_SERVICE_ZH.search(s) or _SERVICE_EN.search(s)) and not _UNWISHED.search(s)


#: A wish the user recalls having made ("上次让你们以后都发圆通，算了…", "earlier I asked for
#: morning deliveries"): the earlier one, which what follows replaces.
_EARLIER_WISH = _rx(
    r"^(?:上次|之前|刚才|刚刚|以前|前面|原来)(?:让|叫|跟|和|说|要)",
    _w(r"earlier i|i (?:said|asked|told you)|last time i"),
)
#: A time said to be this once ("这个周末", "下个星期六", "这两天", "今天下午"), and the cues that
#: make a wish lasting whatever else it names.
_ONCE = re.compile(
    r"这(?:个|一)?(?:周末|周|星期|礼拜)|本周|下(?:个|一)?(?:周|星期|礼拜)|这两天|这几天|今天|明天|后天"
    r"|今晚|明晚|今早|明早|今儿|明儿|这次|这回|这单|这一单|这趟"
    r"|(?<![a-z])(?:tomorrow|tonight|today|this\s+(?:week|weekend|month|order|time|once)"
    r"|for\s+this\s+order|just\s+this\s+once)(?![a-z])"
)
_STANDING_FOR_GOOD = re.compile(
    r"(?<![点时号天])以后|今后|往后|从现在起|从今以后|每次|每一单|一律|统一|默认|永远|都这样"
    r"|每(?:个)?(?:周|星期)|(?:天|周|月|号)(?:开始|起)(?!来|床|飞)|所有(?:的)?(?:快递|件|订单|包裹|单)"
    r"|(?<![a-z])(?:from now on|going forward|in (?:the )?future|henceforth|every (?:single )?time"
    r"|each time|for good|for all (?:future )?orders|(?:all|any) (?:of )?my (?:future )?(?:orders"
    r"|deliveries|parcels|packages|stuff)|(?<!n't )(?<!not )always|ever(?=\s*[.!,]|\s*$))(?![a-z])"
)
#: A habit of the shop complained of ("you guys always deliver before 7am", "每次推荐的都是…",
#: "I always get substitutions even though I ticked no substitutes"): no wish.
_HABIT_COMPLAINED = re.compile(
    r"(?<!make sure )(?<!ensure )(?<!please )(?<!that )"
    r"(?<![a-z])(?:you|you guys|y'all|they|your\s+(?:drivers?|couriers?|staff|team|app|site))\s+"
    r"(?:always|keep|never)(?![a-z])"
    r"|(?<![a-z])i\s+(?:always|keep)\s+(?:get|getting|receive|receiving)(?![a-z])"
    r"|(?:每次|老是|总是|一直)推荐的|推荐的(?:东西|都)[^，,。]{0,4}?(?:太|不|没|都是我不)"
)
#: A wish that points back at what was just said ("以后推荐直接按这个来就好", "帮我避开这些"):
#: what it points at is kept on its own; the pointer alone says nothing.
_BY_WHAT_WAS_SAID = re.compile(
    r"(?:按|照|按照|依照|参照|避开|避免)(?:着)?(?:这个|这些|这样|上面的?|以上)(?!.{0,3}(?:[0-9]|码))"
)
#: Marketing: its opt-outs are the sender's lists', not something an agent keeps in mind.
_PITCH = _rx(
    r"营销|广告|推广|推销|促销|优惠活动|活动信息|会员活动",
    _w(
        r"promo\w*|marketing|newsletters?|spam|ads|adverts?|deals?|offers?|sales?\s+(?:e-?mails?|calls?)"
    ),
)
#: A "no more" that names nothing it is about.
_NOTHING_NAMED = re.compile(
    r"^(?:请|麻烦)?(?:就|都|也)?(?:别|不要|不用)(?:再)?(?:给我)?推(?:荐)?了?[!！。.~～]*$"
    r"|^(?:(?:pls|please|so|and|just)\s+)*(?:stop|quit|don't\s+keep)\s+(?:suggesting|recommending|pushing"
    r"|offering)\s+(?:it|that|this|them)\s*[!.]*$"
)
#: The way of being served said not to be wanted ("以后我所有的件都别送上门了"): no wish for it.
#: (别发了, 不用送上门; but a carrier refused is a wish: "不要用中通发")
_UNWISHED = re.compile(
    r"(?:别|不要|不用|不必)[^，,。]{0,6}?"
    r"(?:送上门|上门|(?<!顺丰)(?<!京东)(?<!中通)(?<!圆通)(?<!韵达)(?<!申通)(?<!邮政)(?<!极兔)发(?!票))"
)


_CLAIM_WISH_BLOCK = _rx(
    r"退款|退钱|赔偿|补偿|免费|折扣|优惠|审核|核实|记录",
    _w(r"refunds?|compensat\w*|free|discount|approv\w*|verif\w*|checks?|log"),
)
