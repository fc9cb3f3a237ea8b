"""What the user says of their own family and household that a shop acts on: a birthday, an
age, an allergy, a condition, a size or a diet said for good ("我老公生日是9月18号", "my daughter
is allergic to nuts", "家里俩娃"), as against a relative's passing tastes or another person's
details, which stay theirs."""

from __future__ import annotations

import re

from governed_memory.memory.write.extraction.cues import _rx, _w
from governed_memory.memory.write.extraction.personal import (
    _REL_ZH_FAMILY,
    _SELF_BLOCK,
    _SELF_LEAD_ZH,
)

# A lasting fact about the user's own family that a shop acts on (a birthday, an age, an
# allergy): part of the user's life, unlike a family member's tastes or wishes about contact.
_FAMILY_FACT = _rx(
    r"生日|岁|个月|过敏|不耐受|属[鼠牛虎兔龙蛇马羊猴鸡狗猪]|出生"
    # a condition the shop has to mind in what it sends them
    r"|高血压|糖尿病|哮喘|痛风|心脏病|癫痫|老年痴呆|坐轮椅|怀孕|湿疹|关节炎"
    # a body that cannot carry, climb or read what the shop sends them
    r"|腿脚不(?:太|大)?(?:好|便|方便|利索)|行动不便|眼神不好|视力不好|耳背|听力不好|耳朵不好|自闭症|多动症"
    # what a child's school year, or eyes, make the shop choose ("上一年级", "近视了")
    r"|上(?:[一二三四五六]年级|幼儿园|小学|初中|高中|[初高][一二三]|大[一二三四])|近视|远视|散光|色盲|色弱"
    # an age said in decades ("我爸七十多了")
    r"|[二三四五六七八九]十多(?:岁)?了",
    _w(
        r"birthday|born|years? old|allergic|allergy|allergies|intolerant"
        r"|turns? \d+|turned \d+|is \d+|are \d+|diabetic|diabetes|asthma|asthmatic|epilep\w*"
        r"|dementia|wheelchair|care home|nursing home|c(?:o)?eliac|pregnant|autis\w*"
        r"|colou?r[- ]?blind|(?:short|near|far)[- ]sighted|in (?:year|grade) \d+"
        r"|eczema|arthritis"
        # an age to come, what they walk with or see by ("our twins are turning 3 next month",
        # "my dad uses a walker", "my mum's eyesight is bad")
        r"|turning \d+|uses? a (?:walker|cane|walking stick|wheelchair|mobility scooter"
        r"|hearing aid)"
        r"|eyesight is (?:bad|poor|failing|not great)|(?:bad|poor|failing) eyesight"
    ),
)


_REL_EN_FAMILY = (
    r"wife|husband|spouse|partner|fianc[eé]e?|mom|mum|mother|dad|father|parents?|sons?"
    r"|daughters?|kids?|children|child|baby|twins|toddler|brothers?|sisters?|grandma"
    r"|grandmother|grandpa|grandfather|grandparents?|gran|granny|nana|grandad"
)
_FAMILY_SUBJECT = re.compile(
    _SELF_LEAD_ZH + rf"(?:我(?:的|家)?(?:{_REL_ZH_FAMILY})|家里(?:的)?(?:{_REL_ZH_FAMILY})?)"
    # a child named alone is the writer's ("宝宝刚满6个月")
    r"|" + _SELF_LEAD_ZH + r"(?:宝宝|娃|孩子|小孩|儿子|女儿|闺女)(?:今年|现在|才|已经|刚)*满?"
    r"[一二两三四五六七八九十0-9]+(?:个)?(?:月|岁)"
    rf"|^(?:my|our)\s+(?:{_REL_EN_FAMILY})(?:'s)?(?![a-z])"
    # the relative said with no "my", as people type ("son has type 1 diabetes")
    rf"|^(?:{_REL_EN_FAMILY})\s+(?=(?:has|is|was|needs|uses|can't|cannot|only)\s)"
)


#: Who and what the user's household holds ("家里俩娃", "我家猫才3个月大", "家里老人快80了").
_HOUSEHOLD = re.compile(
    _SELF_LEAD_ZH + r"(?:我们?)?家(?:里)?(?:有|养了|养着|养的)?"
    r"(?:[一二两俩三四五六七八九\d]+\s*(?:个|只|条|位)?)?"
    r"(?:娃|孩子|小孩|宝宝|儿子|女儿|老人|猫|狗|猫咪|狗狗|宠物|兔子|仓鼠|鹦鹉)"
    # an animal kept, counted, whatever its breed ("家里养了两只柯基")
    r"|" + _SELF_LEAD_ZH + r"(?:我们?)?家(?:里)?(?:养了|养着)"
    r"[一二两俩三四五六七八九\d]+\s*(?:只|条)"
)


def of_family(norm: str) -> bool:
    """A statement whose subject is someone of the user's own family ("我老婆喜欢百合花", "my
    son wears 130")."""
    return bool(_FAMILY_SUBJECT.match(norm.strip()))


def _family_fact(norm: str) -> bool:
    return bool(_FAMILY_FACT.search(norm))


#: A relative's size, diet or health, which the sets' writers keep when the message says it
#: for good (`lasting`: "我老婆穿S码，衣服基本都是我帮她买", "我爸血糖高 给他买的吃的都要无糖的"),
#: not when it is the background of one question ("我老公穿XL，帮我挑件冲锋衣").
_FAMILY_IN_PASSING = _rx(
    r"血糖(?:偏|有点|比较)?高|血压(?:偏|有点|比较)?高|血脂(?:偏|有点|比较)?高|三高|吃素|素食"
    r"|不吃辣|吃不了辣|不能吃辣"
    r"|穿\s*(?:[0-9]{2,3}(?:\.5)?|[XxSsMmLl]{1,3})\s*(?:码|号|的)?"
    # what they can read, hear or use of what the shop sends them
    r"|不识字|只会说|只看得懂|老人机|不会用(?:智能)?手机|用不惯智能手机",
    _w(
        r"vegan|vegetarian|lactose[- ]intolerant|(?:wears?|takes?) (?:a )?(?:size|us|uk|eu) \w+"
        r"|visually impaired|blind|deaf|hard of hearing|(?:uses|wears) a hearing aid"
        r"|can'?t read (?:small|the)|only (?:reads|speaks) \w+"
        r"|(?:really |very |super )?sensitive to"
    ),
)
_LASTING = _rx(
    r"一般|基本|一直|向来|都是我|都在|都要|以后|往后|今后|每次|下次"
    # what the user buys for them, again and again ("我每个月给他买低钠盐", "i reorder them for
    # him"; not once: "这件是给他买的")
    r"|每(?:个)?(?:月|周|星期|年)[^，,。]{0,6}?给"
    # whenever the user buys for them ("买零食的时候帮我避开辣的")
    r"|(?:买|下单|订)[^，,。]{0,8}?的时候",
    _w(
        r"always|usually|every ?thing|every time|from now on|going forward|in future|regularly"
        r"|i (?:re)?(?:order|buy|shop)\s+(?:\w+\s+){0,3}?for (?:him|her|them)"
        r"|(?:for|on) (?:his|her|their) (?:orders|stuff|place)"
        r"|when i order (?:for )?(?:him|her|them)"
        r"|when i order (?:\w+\s+){0,4}?for (?:us|us both|both of us|the two of us)"
    ),
)


def lasting(norm: str) -> bool:
    """Whether a message says what it says for good (see `_FAMILY_IN_PASSING`)."""
    return bool(_LASTING.search(norm))


def _family_statement(norm: str, lasting: bool = False) -> bool:
    """A lasting fact about someone of the user's family ("我老公生日是9月18号", "my daughter is
    allergic to nuts"; `lasting`: the message says it for good)."""
    s = norm.strip()
    # "刚满6个月", "刚八个月" are ages, not something that just happened
    if _SELF_BLOCK.search(re.sub(r"刚(?=满?[一二两三四五六七八九十0-9])", "", s)):
        return False
    if _HOUSEHOLD.match(s):
        return True
    fact = _family_fact(s) or (lasting and bool(_FAMILY_IN_PASSING.search(s)))
    return bool(_FAMILY_SUBJECT.match(s)) and fact
