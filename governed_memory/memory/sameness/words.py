"""Word tables of the gist: fillers, negations, number words, units, currencies, months,
weekdays, relative days, parts of the day, anchor nouns and correction phrases, in English and
Chinese. Data only."""

from __future__ import annotations

import re

# --------------------------------------------------------------------------------------------
# Word tables. Fillers are words whose presence never changes what a statement says.


def _split(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def _words(text: str) -> frozenset[str]:
    return frozenset(_split(text))


def _pairs(text: str) -> dict[str, str]:
    """ "a=b c=d" → {"a": "b", "c": "d"}: compact tables of spellings and their canonical form."""
    return dict(item.split("=", 1) for item in text.split())


FILLERS_EN = _words(
    "a an the please pls plz kindly just really actually basically simply um uh er erm hmm oh "
    "ok okay so also too that yet still"
)
#: Single Chinese characters that are particles or politeness, never content.
FILLERS_ZH = frozenset("的了呢吧啊呀嘛哦噢嗯呗啦哇喔哈请")
#: Multi-character Chinese fillers, removed before the text is cut into characters.
_FILLERS_ZH_WORDS = re.compile("麻烦|一下|谢谢|好的")

NEGATIONS_EN = _words("not no never none nothing nobody nowhere neither nor without")
NEGATIONS_ZH = frozenset("不没未无别非勿莫甭")
#: Words that start with a negation character but do not negate.
_NOT_NEGATION_ZH = _split("不过 不少 不错 不但 不仅 非常 无论 别的 别人 未来 莫名")

_NUMBER_WORDS = {
    w: i
    for i, w in enumerate(
        _split(
            "zero one two three four five six seven eight nine ten eleven twelve thirteen "
            "fourteen fifteen sixteen seventeen eighteen nineteen"
        )
    )
}
_NUMBER_WORDS.update(
    {
        w: 10 * i
        for i, w in enumerate(_split("twenty thirty forty fifty sixty seventy eighty ninety"), 2)
    }
)
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000, "billion": 1_000_000_000}

#: Units after a number, with their canonical spelling.
_UNITS_EN = _pairs(
    "bag=bag bags=bag box=box boxes=box bottle=bottle bottles=bottle piece=piece pieces=piece "
    "pcs=piece pc=piece item=item items=item pack=pack packs=pack packet=packet packets=packet "
    "unit=unit units=unit kg=kg kilo=kg kilos=kg kilogram=kg kilograms=kg g=g gram=g grams=g "
    "lb=lb lbs=lb oz=oz ounce=oz ounces=oz km=km kilometer=km kilometers=km kilometre=km "
    "kilometres=km m=m meter=m meters=m metre=m metres=m cm=cm mm=mm mile=mile miles=mile "
    "l=l liter=l liters=l litre=l litres=l ml=ml hour=hour hours=hour hr=hour hrs=hour h=hour "
    "minute=minute minutes=minute min=minute mins=minute second=second seconds=second "
    "sec=second secs=second day=day days=day week=week weeks=week month=month months=month "
    "year=year years=year yr=year yrs=year time=time times=time night=night nights=night "
    "people=person person=person persons=person ticket=ticket tickets=ticket seat=seat "
    "seats=seat room=room rooms=room order=order orders=order percent=%"
)
#: Chinese measure words and units that follow a number ("3袋", "两个", "5公斤").
_UNITS_ZH = frozenset(
    "个只件袋瓶箱盒包斤克吨岁天日号月年周次位名人张本台份条单笔米里层楼间套双对杯碗家辆部封遍倍成折点时分秒刻%"
)
_UNITS_ZH_WORDS = _split("公斤 千克 公里 小时 分钟 星期 个月")

_CURRENCIES = _pairs(
    "$=USD usd=USD dollar=USD dollars=USD buck=USD bucks=USD 美元=USD ¥=CNY ￥=CNY rmb=CNY "
    "cny=CNY yuan=CNY 元=CNY 块=CNY 块钱=CNY 人民币=CNY €=EUR eur=EUR euro=EUR euros=EUR "
    "欧元=EUR £=GBP gbp=GBP pound=GBP pounds=GBP 英镑=GBP hkd=HKD 港币=HKD 港元=HKD jpy=JPY "
    "yen=JPY 円=JPY 日元=JPY"
)

_MONTHS = {
    name: month
    for month, names in enumerate(
        _split(
            "jan,january feb,february mar,march apr,april may jun,june jul,july aug,august "
            "sep,sept,september oct,october nov,november dec,december"
        ),
        1,
    )
    for name in names.split(",")
}
#: Month names that are also ordinary words or short forms: a month on their own only when
#: capitalised (a day number next to them makes any of them a date).
_AMBIGUOUS_MONTHS = _words("may march mar jan feb apr jun jul aug sep sept oct nov dec")
_WEEKDAYS_EN = {
    day: i
    for i, day in enumerate(_split("monday tuesday wednesday thursday friday saturday sunday"), 1)
}
_WEEKDAYS_ZH = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "日": 7, "天": 7}
_RELATIVE_DAYS = _pairs(
    "today=today tonight=tonight tomorrow=tomorrow yesterday=yesterday 今天=today 今日=today "
    "今晚=tonight 明天=tomorrow 明日=tomorrow 明晚=tomorrow-night 昨天=yesterday "
    "昨日=yesterday 昨晚=last-night 后天=day-after-tomorrow 前天=day-before-yesterday"
)

#: Words that name a business entity when they precede an identifier ("order A-7781").
_ANCHOR_NOUNS_EN = _words(
    "order orders parcel package shipment tracking waybill invoice ticket account booking "
    "reservation refund payment transaction case claim policy subscription contract membership "
    "receipt delivery consignment"
)
_ANCHOR_NOUNS_ZH = _split(
    "订单 单号 快递 运单 包裹 发票 工单 账户 账号 退款 预订 预约 物流 保单 合同 会员 流水"
)
#: Words between an anchor noun and its identifier ("order number A-1", "tracking no. 123").
_ANCHOR_LINKS = _words("number no id num code ref reference is 号 码 编 是 为")

#: Prepositions that introduce a detail ("on Friday", "for order A-1", "在周一"): part of the
#: detail when they come and go with it.
_ATTACHED = _words(
    "on at in by for of to from until till since around about before after 在 于 到 从"
)

#: Prepositions of a time phrase, and those among them that add nothing to the time they mark.
_TIME_PREPS = _words(
    "on at in by before after until till since from to during around about of 在 于 从 到 自"
)
_TIME_MARKERS = _words("on at in of 在 于")

#: Phrases that say a statement corrects an earlier one. They add nothing to what it says, so the
#: gist leaves them out ("其实退款是120元" restates "退款是120元").
_CORRECTION = re.compile(
    r"\b(?:actually|correction|i meant|i mean|to correct|my mistake|i was wrong|let me correct|"
    r"sorry)\b|其实|不对|更正|纠正|说错了|说错|应该是|我是说|搞错了|搞错",
    re.IGNORECASE,
)

# --------------------------------------------------------------------------------------------
# Wording that says the same thing. Only plain synonyms of everyday service language, where one
# word can stand for the other in any sentence; words that differ in degree, polarity or role
# ("likes"/"loves", "late"/"delayed", "send"/"deliver") stay apart. A wrong entry here merges two
# different facts, so when unsure a pair is left out: a missed duplicate only keeps a copy.


def _phrases(text: str) -> list[tuple[re.Pattern[str], str]]:
    """ "a b=c|d=e" → [(pattern of "a b" as whole words, "c"), …]."""
    pairs = (item.split("=", 1) for item in text.split("|"))
    return [(re.compile(rf"\b{re.escape(a)}\b", re.IGNORECASE), b) for a, b in pairs]


def _groups(text: str) -> dict[str, str]:
    """ "a,b,c d,e" → {"b": "a", "c": "a", "e": "d"}: each spelling to the first of its group."""
    out: dict[str, str] = {}
    for group in text.split():
        first, *rest = group.split(",")
        out.update(dict.fromkeys(rest, first))
    return out


SYNONYMS_EN = _groups(
    "buy,purchase bought,purchased buys,purchases buying,purchasing "
    "parcel,package parcels,packages "
    "begin,start begins,starts began,started beginning,starting "
    "cancel,terminate cancelled,canceled,terminated cancels,terminates "
    "want,wants,wish,wishes wanted,wished "
    "damaged,broken "
    "often,frequently "
    "doctor,physician doctors,physicians "
    "unhappy,dissatisfied,displeased "
    "help,assist helps,assists helped,assisted "
    "need,require needs,requires needed,required "
    "tell,inform tells,informs told,informed "
    "big,large quick,fast "
    "phone,telephone,cellphone "
    "get,receive gets,receives got,received "
    "shipped,dispatched ship,dispatch "
    "every,each "
)
#: Phrases of several words that stand for one word ("would like" → "want").
PHRASES_EN = _phrases(
    "would like=want|would love=want|would prefer=prefer|asked for=requested|"
    "asks for=requests|ask for=request|"
    "dropped off=left|drop off=leave|gave back=returned|give back=return|sent back=returned|"
    "send back=return|how come=why"
)
#: Chinese spellings of the same word (longest first when one contains another).
SYNONYMS_ZH = _pairs(
    "购买=买 选购=买 希望=想 想要=想 老公=丈夫 老婆=妻子 太太=妻子 爱人=配偶 大夫=医生 "
    "破损=损坏 损毁=损坏 配送=送货 派送=送货 延误=延迟 十分=非常 特别=非常 "
    "不满意=不满 寄出=发货 发出=发货 询问=问 咨询=问 协助=帮助 告知=告诉 通知=告诉 "
    "取得=得到 立刻=马上 立即=马上"
)
#: Auxiliaries of an English passive ("was delivered by the courier").
PASSIVE_AUX = _words("was were is are been be being")
#: Irregular participles, and the past tense an active sentence uses.
PARTICIPLES = _pairs(
    "given=gave taken=took sent=sent made=made paid=paid sold=sold bought=bought told=told "
    "brought=brought left=left lost=lost found=found kept=kept held=held written=wrote "
    "chosen=chose broken=broke stolen=stole shown=showed seen=saw done=did driven=drove "
    "put=put set=set cut=cut shut=shut sent=sent spent=spent lent=lent built=built"
)
