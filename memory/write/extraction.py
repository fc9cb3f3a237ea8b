"""Extraction: what an utterance says that is worth remembering, as candidates.

`Extractor` is the protocol; `RuleExtractor` is the offline, deterministic default for Chinese
and English. It covers the profile keys of the scenario SPEC (notification channel and quiet
hours, reply language, timezone, preferred contact hours), claims about business entities
(orders, payments, shipments, refunds), and explicit requests to remember something; it tells a
standing wish from a one-off (`temporary`), a negation (which closes the value it denies), a
statement about someone else (`third_party`), and chit-chat (nothing extracted).

How `RuleExtractor` reads an utterance:

* It is cut into sentences (。！？!?；; line breaks, ". ") and clauses (，,); a clause is cut
  again at 但是/不过/可是/但/but/however into parts. Preferences and self-statements are read
  per part, business claims and requests to remember per clause.
* A part names a preference only with a cue that it is a wish about contacting the user
  ("以后", "请", "希望", "通知我", "联系我", "text me", "prefer", "please", "by email", ...);
  a bare mention ("短信收到了，谢谢", "你们的邮件系统是不是坏了") gives nothing.
* Judgement calls, each a rule:
  - A question is not a wish ("能发短信吗？", "can you email me?") unless it carries a
    standing marker ("可以以后发短信给我吗", "could you text me from now on?"), asks to switch
    ("能改成邮件吗"), or asks to stop ("能不能别再打电话了"); a polite tail ("…好吗", "…可以吗",
    "…, ok?") makes a request, not a question.
  - One-off markers (这次, 今天, 暂时, 先…吧, 这单, this time, just this once, for now, today,
    for this order, ...) make a wish `temporary` unless a standing marker (以后, 每次, from now
    on, always, ...) is also there; so does a request about one specific thing (发票, 合同,
    截图, "email me the invoice", "call me back"). A one-off marker in an earlier clause of the
    same sentence carries over ("just this once, email me the invoice").
  - Who a wish is about: the person it is addressed to ("给我妈打电话", "text my husband") if
    any, else its subject ("我妈妈喜欢短信通知", "he wants texts"). A subject that includes the
    user ("我和我妈都喜欢短信", "my wife and I prefer email", "我们") counts as the user; a
    third person the user merely mentions does not change that ("我老公说以后给我发短信").
  - Within one part, a channel after 比起/不如/rather than/instead of is the one not chosen;
    with two chosen channels and no priority word (优先, 首选, prefer) the part is ambiguous
    and gives nothing ("短信或者邮件都行").
  - A negation and a positive wish for the same key in one utterance: only the positive
    candidate is emitted ("别发短信了，改成邮件", "not SMS, email please").
  - A clause that names hours reads them as quiet hours when it denies contact
    ("晚上10点以后别打扰我", "no calls after 10pm") and as preferred contact hours otherwise
    ("只在工作时间联系我"); the channel named inside such a clause is not extracted on its own.
  - Several clauses with the same key merge into one candidate: a channel and quiet hours
    become one notification.preference value; for two different values the stronger (then
    the later) wins.
  - Business claims need an entity (订单, 快递, 退款, 扣款, order, package, refund, charged, ...)
    and an asserted status ("三天没发货", "已签收", "hasn't arrived", "charged twice"); a
    status asked about ("到哪了？", "what's the status?") or wished for ("希望尽快发货",
    "我不想要退款") is not a claim.
  - Self-statements are read conservatively: 我是…/我喜欢…/我不吃…/我住在…/我的…是…/I'm a…/
    I live in…/I work…/my … is …; episodes and complaints ("我买的耳机左边没声音", "快递太慢了")
    give nothing. A statement of the same shape about someone else is skipped as third_party.
  - "我现在住在东京" / "I live in Berlin" are self-statements, never profile.timezone; only an
    explicit zone statement (时区, 按…时间, "my timezone is", "I'm on … time") is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from pydantic import Field

from memory.errors import InvalidInput
from memory.models import Candidate, ExtractorInfo, Model
from memory.vocabulary import CONTACT_HOURS, LANGUAGE, NOTIFICATION, TIMEZONE
from memory.write.normalize import (
    Mention,
    find_channels,
    find_languages,
    find_timezone,
    fold,
    normalize_hours,
    normalize_quiet_hours,
    normalize_timezone,
    normalize_whitespace,
)

SkipReason = Literal["temporary", "third_party"]


class ExtractedCandidate(Model):
    """One candidate found in an utterance."""

    candidate: Candidate
    #: The clause of the utterance it came from (verbatim).
    clause: str
    #: True for a negation ("别再给我发短信了", "stop texting me"): `candidate.structured_value`
    #: holds the value being denied; the pipeline closes that value instead of asserting it.
    negated: bool = False


class Skipped(Model):
    """A clause recognised as a wish or fact that must not become a standing memory."""

    reason: SkipReason
    clause: str
    #: The key it would have written, when recognisable (e.g. notification.preference).
    key: str | None = None
    structured_value: dict[str, object] | None = None


class Extraction(Model):
    candidates: list[ExtractedCandidate] = Field(default_factory=list)
    skipped: list[Skipped] = Field(default_factory=list)


class Extractor(Protocol):
    info: ExtractorInfo

    def extract(self, text: str, *, default_timezone: str) -> Extraction:
        """Candidates in `text`, said by the subject of the namespace about themselves."""
        ...


# --------------------------------------------------------------------------------------------
# Vocabulary. Every pattern runs on folded text (NFKC, lower case), see normalize.fold.

STRONG = 0.95  # an explicit standing wish
WEAK = 0.8  # a weaker one ("还是短信最方便", "email is fine")
REMEMBER = 0.9  # an explicit "remember that ..."
SELF_STATEMENT = 0.7  # "我是素食主义者", "I live in Berlin"
CLAIM = 0.6  # a user's claim about an order, payment, shipment or refund


def _w(pattern: str) -> str:
    """An ASCII word pattern bounded by non-letters (works next to CJK text)."""
    return rf"(?<![a-z0-9'])(?:{pattern})(?![a-z0-9])"


def _rx(*parts: str) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{p})" for p in parts))


_STANDING = _rx(
    r"(?<![点时分半\d])(?:以后|之后都)|今后|往后|将来|从此|从现在|从今天|从今以后|从明天|从下次|今天开始|今天起|明天开始|明天起"
    r"|下次开始|下次起|现在开始|现在起|每次|每一次|一直|总是|永远|始终|默认|长期|一律|所有|任何|统一|全部|都(?:用|发|打|走|通过)",
    _w(
        r"always|from now on|going forward|in (?:the )?future|from today(?: on)?|starting (?:today"
        r"|tomorrow|now|from)|every time|by default|henceforth|moving forward|(?:all|any) future"
        r"|whenever|at all times|permanently|for good|from here on|all (?:notifications|updates"
        r"|messages|alerts)|anymore|any more|ever again|in general|generally"
    ),
)
_TEMPORARY = _rx(
    r"这次|这一次|本次|这回|这一回|今天|今晚|今早|今儿|明天|明早|这两天|这几天|这周|这个星期|本周"
    r"|这个月|暂时|临时|这单|这一单|这个订单|这笔|这件事|这个包裹|这个快递|这批|下次|下一次|只此一次"
    r"|就这一次|一次性|马上|立刻|现在|晚点|晚一点|稍后|待会|等会|一会儿|回头",
    _w(
        r"this time|just this once|this once|just once|only once|for now|today|tonight|tomorrow"
        r"|this (?:week|weekend|morning|afternoon|evening)|right now|right away|at the moment"
        r"|for the moment|temporarily|for the time being|for this (?:order|one|purchase|item)"
        r"|this (?:order|package|parcel|delivery|invoice|shipment|refund|purchase)|next time"
        r"|asap|immediately|later|in a (?:bit|while|minute|moment)|in an hour"
    ),
)
# 先…吧: "先打电话吧" is one-off; 优先, 首先, 事先, 先生 are not 先.
_FIRST_THEN = re.compile(r"(?<![优首事预原早领率争抢])先(?!生|前|进|锋|锋)")
_FIRST_THEN_TAIL = re.compile(r"吧|一下|着|再说")
_ONE_OFF_OBJECT = _rx(
    r"发票|收据|合同|文件|资料|截图|链接|二维码|单据|凭证|报价单?|照片|图片|说明书|电子版|回执|确认函"
    r"|回(?:个|一个)?电话|回电(?!话)",
    _w(
        r"invoices?|receipts?|contracts?|documents?|files?|links?|screenshots?|photos?|pictures?"
        r"|quotes?|brochures?|manuals?|the details|tracking number|labels?|call me back"
        r"|get back to me|(?:send|email|e-mail|text|mail) (?:it|this|that)|me (?:it|this|that)"
        r"|when (?:it|this|that|(?:the|my) (?:order|package|parcel|item|refund|shipment|delivery))"
        r"|(?:it|this|that) to me"
    ),
)

_Q_START = re.compile(
    r"^(?:为什么|为啥|怎么|能不能|能否|可不可以|可否|是不是|是否|有没有|难道|请问"
    r"|(?:can|could|would|will|do|does|did|is|are|was|were|have|has|had|why|what|when|where|how"
    r"|who|which|should|shall|may|might|any chance)(?![a-z]))"
)
_Q_ANY = re.compile(r"是不是|为什么|为啥|怎么回事|什么时候|多久|(?:吗|么|嘛|呢)$")
_POLITE_TAIL = re.compile(
    r"(?:好吗|好不好|行吗|行不行|可以吗|可以不|成吗|(?<![a-z])(?:ok|okay|alright|please|pls"
    r"|thanks|thank you))$"
)
_WHY = re.compile(r"为什么|为啥|怎么|" + _w(r"why|how come"))
_SWITCH = _rx(r"改成|改为|换成|改用|换用|切换|改到|换到", _w(r"switch(?:ed)? to|change to|instead"))

_NEG_ZH = (
    r"(?:别再|不要再|不用再|再也不要?|别(?!人|的|处|家|忘)|不要(?!忘)|不用|不需要|不必|无需|甭|不想|不愿意?"
    r"|不希望|不喜欢|讨厌|停止|停掉|停发|取消|关掉|关闭|退订|不再|不接受?|不看|拒绝|禁止|勿)"
)
_NEG_ZH_WEAK = {"不喜欢", "讨厌", "不看", "不接", "不接受"}
_NEG_EN = (
    r"(?:please )?(?:don't|dont|do not|never|stop|quit|no more|no longer|not|no|cease"
    r"|unsubscribe(?: me)?(?: from)?|opt(?: me)? out(?: of)?|cancel|hate|dislike|can't stand"
    r"|won't|will not|wouldn't|would not|without|avoid|rather not|prefer not(?: to)?)"
)
_NEG_EN_WEAK = {"not", "hate", "dislike", "can't stand", "without", "avoid"}
_GLUE_ZH = (
    r"(?:再|给|我|发|打|用|通过|走|以后|今后|都|就|也|还|任何|了|个|条|封|一个|一条|一封|来|过|去|的|接"
    r"|收|看|什么|那么多|这么多|老|总|跟|和|往|向|到|手机|这种|那种|这些|那些|是|使用|发送|推送|联系"
    r"|打扰|你们|您们?|你|\s)*"
)
_GLUE_EN_LIST = (
    "me any more to by via through on over with send sending use using a an the those these"
    " please again ever just really so many want wanna like get getting receive receiving be"
    " being contacted called texted emailed reached notified bother bothering them anymore of"
    " from you your lot lots as at all calling texting emailing messaging phone for updates"
    " notifications sent i do need need to give making make"
)
_GLUE_EN = frozenset(_GLUE_EN_LIST.split())
_NEG_ZH_BEFORE = re.compile(f"(?P<neg>{_NEG_ZH}){_GLUE_ZH}$")
_NEG_ZH_AFTER = re.compile(
    rf"^\s*(?:通知|提醒|推送|消息|联系)?\s*(?:就|也|都|以后|再|还是|的话)*\s*(?P<neg>{_NEG_ZH})"
)
_NEG_EN_RE = re.compile(_w(_NEG_EN))

_CONTENT_BLOCK = _rx(
    r"验证码|营销|广告|推广|促销|优惠券|垃圾|骚扰|诈骗|收到了|没收到|没有收到|收不到|未收到|已收到|刚收到"
    r"|收到的|发不出|打不通|打不进|用不了|不好用|坏了|故障|是不是|打不开|点不开|看不到|看不了|看不见|乱码"
    r"|(?:邮件|短信|邮箱|微信)(?:里|中)的|没人接|没人回|没人理|占线|没接到|接不到",
    _w(
        r"marketing|promotional|promos?|promotions?|newsletters?|spam|ads|adverts?|advertising"
        r"|verification|otp|one-time|scam|didn't get|did not get|don't get|not getting"
        r"|haven't (?:got|gotten|received)|never (?:got|received)|can't receive|cannot receive"
        r"|not receiving|didn't receive|did not receive|received|got your|got the|broken"
        r"|not working|doesn't work"
    ),
)
_PAST_BLOCK = _rx(
    r"以前|之前|原来|过去|上次|刚才|刚刚|昨天|前天|发了|打了|打过|发过|已经发|已发|失败|错了|出错|回复我的"
    r"|查收|查看|老是|老给|总给|又给|又打|又发|天天|整天|你们?(?:一直|总是)|太慢|太多",
    _w(
        r"used to|previously|last time|yesterday|sent|wrong|keeps?|kept|too many|reply to my"
        r"|check (?:my|your)|read my|your (?:e-?mails?|texts?|messages?|calls?)"
    ),
)
_WHY_BLOCK = _WHY

_STRONG_CUE = _rx(
    r"以后|今后|往后|将来|从此|从现在|从今天|默认|一律|每次|总是|一直|始终|永远|(?<![申邀])请|麻烦|希望"
    r"|想要|想让"
    r"|想用|要用|偏好|倾向|更愿意|宁愿|宁可|优先|首选|只用|只看|只接|只收|只回|只要|只能|统一|都用|都发"
    r"|改成|改为|换成|改用|换用|切换|通知我|联系我|找我|告诉我|提醒我|回复我|回我|发我|发给我|给我发"
    r"|给我打|打给我|打我|发到我|通知一下我|联系一下我|推送给我",
    _w(
        r"always|from now on|going forward|in (?:the )?future|by default|only|prefers?|preferred"
        r"|preferably|please|pls|would like|i'd like|i want|wants|want you to|rather"
        r"|switch(?:ed)? to|change to|instead|(?:text|txt|sms|email|e-mail|mail|call|phone|ring"
        r"|message|msg|notify|contact|reach|ping|update|inform|alert|tell|wechat|remind) me"
        r"|let me know|get in touch|keep me (?:posted|updated|informed)|best way|best to reach"
    ),
    r"^(?:please |pls |just )?(?:text|txt|sms|e-?mail|call|phone|ring|message|wechat)(?![a-z0-9])"
    r"(?!\s+(?:is|are|was|were|works?|would|will|seems?|sounds?|should)(?![a-z]))",
)
_WEAK_CUE = _rx(
    r"喜欢|习惯|最好|方便|就行|就好|就可以|即可|可以了|比较好|更好|挺好|好一些|好点|靠谱|用|通过|走|发"
    r"|打|吧|行|可以|联系|比.{1,6}(?:好|方便|靠谱|快|强)|开启|开通",
    _w(
        r"likes?|loves?|fine|ok|okay|works?|better|best|good|great|easiest|easier|convenient|uses?"
        r"|using|via|by|through|over|just|is preferred|go with|stick (?:to|with)|reach|contact"
        r"|needs?|wants?|reads?|checks?|turn on|enable|give me a ring"
    ),
)
_PRIORITY_BEFORE = re.compile(
    r"(?:优先|首选|最好|主要|尽量|"
    + _w(r"prefer(?:ably)?|primarily|mainly|first")
    + r")\s*(?:用|发|通过|走|by|via)?\s*$"
)
_ALT_BEFORE = re.compile(
    r"(?:比起|与其|而不是|不是|比|"
    + _w(r"rather than|instead of|than|not")
    + r")\s*(?:用|发|打|通过|by|via)?\s*$"
)
_NOT_BEFORE = re.compile(r"(?:不是|(?<![a-z])not)\s*(?:用|发|打|通过|by|via)?\s*$")
_ALT_AFTER = re.compile(r"^\s*(?:不如|没有|还不如)")
_DETERMINER_BEFORE = re.compile(_w(r"the|this|that|your|their|his|her|its") + r"\s+$")

# The person a part is about.
_REL_ZH = (
    r"妈妈|老妈|母亲|妈|爸爸|老爸|父亲|爸|老公|老婆|丈夫|妻子|太太|爱人|对象|女朋友|男朋友|女友|男友"
    r"|朋友|同事|领导|老板|上司|孩子|儿子|女儿|哥哥|哥|姐姐|姐|弟弟|弟|妹妹|妹|家人|家里人|父母|爸妈"
    r"|爷爷|奶奶|外公|外婆|姥姥|姥爷|室友|舍友|邻居|助理|秘书|客户|先生|媳妇|闺蜜|兄弟|亲戚|舅舅|阿姨"
    r"|叔叔|姑姑"
)
_REL_ZH_BARE = (
    r"妈妈|爸爸|老公|老婆|丈夫|妻子|太太|儿子|女儿|孩子|父母|爸妈|爷爷|奶奶|外公|外婆|男朋友|女朋友"
    r"|朋友|同事|老板|领导|室友|邻居|家人|家里人|别人|他人|其他人|其它人"
)
_REL_EN = (
    r"wife|husband|mom|mum|mother|dad|father|parents?|sons?|daughters?|kids?|children|child"
    r"|friends?|colleagues?|co-?workers?|boss|partner|girlfriend|boyfriend|brothers?|sisters?"
    r"|family|grandma|grandmother|grandpa|grandfather|assistant|roommate|flatmate|neighbou?rs?"
    r"|spouse|fianc[eé]e?|manager|secretary|aunt|uncle|cousins?|in-laws|mother-in-law"
    r"|father-in-law"
)
_THIRD_ZH = rf"我(?:的)?(?:{_REL_ZH})|(?:{_REL_ZH_BARE})|(?<![其吉])他们?(?!人)|她们?"
_THIRD_EN = (
    rf"(?<![a-z])(?:my|our)\s+(?:{_REL_EN})(?![a-z])|(?<![a-z])(?:mom|mum|dad)(?![a-z])"
    r"|(?<![a-z'])(?:he|she|they|him|her|them|his|their|someone else|somebody else"
    r"|other people|others)(?![a-z'])"
)
_INCL = (
    rf"我们|咱们|我俩|全家|我(?:和|跟|与|同)|(?:和|跟|与|同)我(?!的?(?:{_REL_ZH})|说|讲|联系|沟通|交流)"
    rf"|(?<![a-z])(?:we|us|both of us|(?:and|&) (?:i|me)|(?:i|me) and)(?![a-z'])"
    rf"|(?<![a-z])our(?!\s+(?:{_REL_EN})(?![a-z]))(?![a-z])"
)
_FIRST = r"我|(?<![a-z])(?:i'm|i'd|i'll|i've|im|i|me|my|mine|myself)(?![a-z])"
_PERSON_RE = re.compile(f"(?P<incl>{_INCL})|(?P<third>{_THIRD_ZH}|{_THIRD_EN})|(?P<first>{_FIRST})")
_TARGET_BEFORE = re.compile(
    r"(?:给|打给|发给|发到|通知|联系|告诉|提醒|回复|找|打|转告|帮|替|叫|寄给|发送给|推送给)\s*$|"
    + _w(
        r"call|text|email|e-mail|mail|notify|contact|tell|message|ping|ring|phone|reach|send"
        r"|inform|remind|update|to|for|cc|copy|alert"
    )
    + r"\s+$"
)
_OPINION_AFTER = re.compile(
    r"^\s*(?:觉得|认为|猜|听说|估计|相信|"
    + _w(r"think|believe|guess|heard|know|feel|suppose")
    + ")"
)
_TOPIC = re.compile(
    rf"^(?:至于|关于)?\s*(?:{_THIRD_ZH})\s*(?:的话|呢|那边|这边|那里)?$"
    rf"|^(?:as for|regarding|for)\s+(?:{_THIRD_EN})$"
)
_CONTINUES = re.compile(r"^(?:也|还|都|又|同样)|" + _w(r"also|too|as well"))

# Languages
_LANG_BLOCK = _rx(
    r"翻译|译成|译为|学|课|老师|字幕|版本|说明书|水平|考试",
    _w(
        r"translat\w*|learn\w*|stud(?:y|ying)|course|class|lessons?|teacher|tutor|subtitles?"
        r"|version|manual|food|cuisine"
    ),
)
_LANG_NOUN_AFTER = re.compile(
    r"^\s*(?:版|名|字|歌|书|电影|菜|字幕|说明|翻译|老师|课|水平|成绩|考试|单词|系统|界面|网站|页面|客服)|"
    r"^\s*"
    + _w(
        r"food|cuisine|version|name|movies?|films?|books?|class|course|lessons?|teacher|fries"
        r"|toast|wine|people|person|restaurants?|songs?|music|subtitles?|keyboard|manual|edition"
        r"|market|site|website|page|products?|description|speakers?|support|team|girl|guy|man"
        r"|woman|friends?|breakfast|dish|dishes|style|bread|cheese|beer|speaking"
    )
)
_LANG_POS_BEFORE = re.compile(
    r"(?:用|以|使用|改用|换成|改成|切换到|切换成|换到|切到|都用|只用|偏好|习惯|更喜欢|希望|想要|倾向于?"
    r"|要)\s*(?:用|以|说|讲)?\s*$|(?:只会?|请|都|跟我|和我|对我|同我)\s*(?:说|讲)\s*$|"
    + _w(r"in|use|using|only speak|prefer|preferably|to|into|switch to|change to")
    + r"\s+(?:the\s+)?$"
)
_LANG_POS_AFTER = re.compile(
    r"^\s*(?:来|进行)?\s*(?:回复|回答|答复|沟通|交流|聊天?|对话|回|答|联系|写|和我|跟我|给我|同我|对我"
    r"|就行|就好|就可以|即可|吧|可以吗|好吗|谢谢)|^\s*"
    + _w(
        r"please|only|from now on|going forward|is (?:fine|better|preferred|best|ok|okay)|works"
        r"|if possible|thanks|thank you"
    )
)
_LANG_NEG_BEFORE = re.compile(
    rf"(?P<neg>{_NEG_ZH})(?:再|给我|用|以|说|讲|回复|回答|和我|跟我|跟我说|对我说|我|了|的|\s)*$"
)
_LANG_NEG_AFTER = re.compile(r"^\s*(?:就|也|都|的话)*\s*(?:不要|别|不用|不行|不好|不方便)")
_LANG_CANT = re.compile(
    r"(?:看不懂|听不懂|不懂|不会说|不会讲|不太懂)\s*$|"
    + _w(
        r"don't understand|do not understand|can't read|cannot read|don't speak|do not speak"
        r"|can't speak|cannot speak|don't read|do not read"
    )
    + r"\s+$"
)
_LANG_GLUE_EN_LIST = (
    "reply respond answer write speak talk to me in use using communicate with please again"
    " anymore the send texts emails messages any more do i want replies answers responses"
    " contact"
)
_LANG_GLUE_EN = frozenset(_LANG_GLUE_EN_LIST.split())
_LANG_COMM_EN = re.compile(
    _w(
        r"reply|replies|respond|responses?|answers?|write|speak|talk|communicate|chat|text|email"
        r"|contact|message|messages|use|switch|change|prefer|preferred|please|language"
        r"|converse|correspond|from now on|going forward|always"
    )
)
_LANG_STRONG = _rx(
    r"以后|今后|请|麻烦|希望|偏好|只|回复|回答|答复|沟通|交流|语言",
    _w(
        r"please|prefer|preferred|only|reply|replies|respond|answer|communicate|always"
        r"|from now on|going forward|language|switch to|change to"
    ),
)
_LANG_ALONE = re.compile(r"^\s*(?:in\s+)?(?:the\s+)?\s*(?:please|only|thanks)?\s*$")
_LANGUAGE_WORD = _rx(r"语言", _w(r"language"))

# Time zones
_TZ_CUE = _rx(
    r"时区|时间为准|(?:按照?|以|用|采用|使用|改用|换成|改成|切换[到成]|都按|是)\s*\S{1,8}?(?:标准)?时间"
    r"|(?:我们?|咱们)(?:这边|这里)?(?:在|是|用的?是?)\s*[东西](?:[一二三四五六七八九十]{1,2}|\d{1,2})区",
    _w(r"time\s*zone|timezone|tz"),
    r"(?<![a-z])(?:i'm|im|i am|we're|we are)\s+(?:on|in|using)\s+(?:the\s+)?"
    r"(?:[a-z./+\-0-9]+\s+){1,3}?(?:(?:standard|daylight)\s+)?time(?![a-z])",
    r"(?<![a-z])(?:use|using|per|according to|schedule[a-z]*\s.{0,30}in|in)\s+(?:the\s+)?"
    r"(?:[a-z./+\-0-9]+\s+){1,3}?time(?![a-z])",
    r"(?<![a-z])(?:i'm|im|i am)\s+(?:on|in|at)?\s*(?:utc|gmt)\s*[+\-−]\s*\d",
)
_TZ_AFTER_CUE = re.compile(
    r"(?:时区|time\s*zone|timezone)\s*(?:是|为|改成|改为|设为|设置为|设成|换成|:|is|to|=|should be"
    r"|set to)?\s*(?P<zone>.+?)\s*(?:吧|了|哦|啊|呀|please|thanks|thank you)?$"
)

# Hours
_QUIET_MARK = _rx(
    r"免打扰|勿扰|别打扰|不要打扰|不打扰|别吵|不要吵|打扰",
    _w(
        r"do not disturb|don't disturb|dont disturb|dnd|quiet hours?|quiet time|silent hours?"
        r"|no disturb"
    ),
)
_UNAVAILABLE = _rx(
    r"不方便|没空|没时间|在睡觉|睡觉|在休息|不在",
    _w(r"busy|unavailable|not available|asleep|sleeping|not free"),
)
_NO_CONTACT_EN = re.compile(
    _w(r"no (?:phone )?(?:calls?|texts?|messages?|e-?mails?|notifications?|contact|pings?)")
)
_CONTACT_VERB = _rx(
    r"联系|打给|打我|找我|通知|打电话|电话|短信|邮件|微信|推送|发消息|发信息|回电|接电话|有空|方便|在线"
    r"|打扰|接听",
    _w(
        r"call|calls|calling|contact|reach|text|texts|email|emails|ring|phone|message|messages"
        r"|notify|notifications?|ping|available|free|get in touch|best time|disturb|bother"
    ),
)
_CONTACT_NEG = re.compile(
    rf"{_NEG_ZH}{_GLUE_ZH}(?:打|发|联系|找|通知|推送|接|打扰|吵|call|text|e-?mail|message|contact"
    r"|ring|phone|ping|notify|send|bother|disturb)|"
    + _w(_NEG_EN)
    + r"(?:\s+\w+){0,3}?\s+(?:call|calls|calling|text|texts|texting|e-?mails?|e-?mailing|message"
    r"|messages|messaging|contact|ring|phone|ping|notify|send|bother|disturb)"
)
_HOURS_STRONG = _rx(
    r"只|请|希望|最好|以后|一律|别|不要|勿|免打扰",
    _w(r"only|please|prefer|best|always|never|don't|do not|no"),
)

# Remember
_REMEMBER_ZH = re.compile(
    r"^\s*(?:请|麻烦|你)?\s*(?:帮我|给我)?\s*(?:记住|记一下|记下来|记下|记好|记着|牢记|记录一下|记录下来"
    r"|记录下|备注一下|备注)(?:一下)?\s*[:：,，]?\s*(?:这个|这点|这一点|以下|下面)?(?:的)?(?:信息|内容)?"
    r"\s*[:：,，]?\s*(?:就是)?\s*"
)
_REMEMBER_EN = re.compile(
    r"^\s*(?:please\s+|pls\s+|can you\s+|could you\s+)?(?:remember|note|keep in mind|bear in mind"
    r"|don't forget|do not forget|make a note|take note|take a note|for (?:your|future) reference)"
    r"(?:\s+(?:that|this|of this|of that|down))?\s*[:,\-]?\s*(?:that\s+)?"
)
_REMEMBER_EMPTY = re.compile(r"^[\s了吗吧啊呀哦嗯么呢.!?。！？]*$")

# Business claims
_ENTITY: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("refund", _rx(r"退款|退钱|退费|退货款", _w(r"refunds?|refunded|money back|reimburse\w*"))),
    (
        "payment",
        _rx(
            r"付款|支付|扣款|扣费|扣钱|扣了|收费|多扣|重复扣|付了|付过|到账",
            _w(r"charged|charges?|payments?|paid|billing|billed|transactions?|overcharged"),
        ),
    ),
    (
        "logistics",
        _rx(
            r"快递|物流|包裹|运单|配送|派送|送货|签收|揽收|揽件|快递员",
            _w(
                r"shipments?|shipping|packages?|parcels?|deliver(?:y|ed|ies)|courier|tracking"
                r"|in transit"
            ),
        ),
    ),
    (
        "order",
        _rx(
            r"订单|单号|发货|发错|错发|漏发|少发|送错|货", _w(r"orders?|shipped|dispatched|items?")
        ),
    ),
)
_STATUS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "refund",
        _rx(
            r"申请了退款|已申请退款|退款(?:失败|被拒|中|成功|了)|没退|未退|还没退|没有退|不退|已退款|退了",
            _w(
                r"refunded|requested a refund|applied for a refund|refund (?:was )?(?:denied"
                r"|rejected)"
            ),
        ),
    ),
    (
        "payment",
        _rx(
            r"扣了(?:两|2|二)次|扣两次|重复扣|多扣|扣款失败|支付失败|付款失败|付不了|被扣|已扣|扣了|已付款|已支付"
            r"|付了钱|付过了|付款成功|支付成功|没扣|未扣款",
            _w(
                r"charged (?:me )?(?:twice|again|extra|more|double)|double[- ]charged|overcharged"
                r"|billed twice|was charged|been charged|got charged|payment (?:failed|declined"
                r"|went through|was declined)|card (?:was )?declined"
            ),
        ),
    ),
    (
        "order",
        _rx(
            r"(?:还?没有?|未|不)(?:发货|发出)|已经?(?:发货|发出|取消)|发货了|取消了|被取消|漏发|发错|错发"
            r"|少发|送错|货不对|发成了|待发货|待出库",
            _w(
                r"(?:hasn't|has not|haven't|have not|didn't|did not|not yet|still not|isn't|is not"
                r"|wasn't|was not)\s+(?:been\s+)?(?:shipped|dispatched|processed)|(?:was|been|got"
                r"|is|has been)\s+(?:shipped|dispatched|cancell?ed)|cancell?ed|wrong (?:item|size"
                r"|colou?r|product|order)|(?:is|are|was|were|running) (?:late|overdue)"
            ),
        ),
    ),
    (
        "logistics",
        _rx(
            r"(?:还?没有?|未)(?:签收|送到|送达|更新|动)|显示(?:已|被)?签收|被(?:人)?签收|已经?(?:签收|送达|退回)"
            r"|签收了|丢了|丢件|丢失|弄丢|破损|损坏|摔坏|压坏|少了|少件|卡住|卡在|停滞|不动了?|没动静|没消息"
            r"|延迟|延误|超时|被退回|退回|拒收|送错|待揽收|待收货|派送中|运输中",
            _w(
                r"(?:hasn't|has not|haven't|have not|didn't|did not|not yet|still not|never|isn't"
                r"|is not|wasn't|was not)\s+(?:been\s+)?(?:delivered|moved|updated|picked up)"
                r"|(?:was|been|got|is|are|were|has been|have been|shows?(?: as)?|marked(?: as)?"
                r"|says?)\s+(?:delivered|lost|damaged|broken|stuck|delayed|returned|missing"
                r"|in transit)|lost|damaged|stuck|delayed|missing|arrived (?:broken|damaged|late)"
            ),
        ),
    ),
    (
        "generic",
        _rx(
            r"(?:还?没有?|未|不)(?:到账|到|收到)|到账了|已经?到账|到了|\d+天(?:了|都)?(?:还)?没|还在等"
            r"|一直在等|等了.{0,4}还",
            _w(
                r"(?:hasn't|has not|haven't|have not|hadn't|didn't|did not|never|not yet|still not"
                r"|isn't|is not|wasn't|was not|aren't)\s+(?:yet\s+)?(?:been\s+)?(?:arrived?"
                r"|received|come|came|got|gotten|reached|showed up|shown up|credited|gone through"
                r"|here)"
                r"|still (?:waiting|pending|processing|in transit)|arrived|never came|not arrived"
                r"|waiting for (?:my|the|a) (?:refund|package|parcel|order|delivery|money)"
            ),
        ),
    ),
)
_ENTITY_PREFIX = {
    "order": "order",
    "payment": "payment",
    "logistics": "shipment",
    "refund": "refund",
}
_KEY_OF = {
    "order": "order.status",
    "payment": "payment.status",
    "logistics": "logistics.status",
    "refund": "refund.status",
}
_ID = r"(?P<id>[A-Za-z0-9][A-Za-z0-9\-_]*[0-9][A-Za-z0-9\-_]*|[0-9]{3,})"
_LABELLED_IDS: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (
        prefix,
        re.compile(rf"(?:{label})\s*(?:号码?|编号|number|no\.?|id|#)?\s*[:：#]?\s*" + _ID, re.I),
    )
    for prefix, label in (
        ("refund", r"退款单|退款|refund"),
        ("shipment", r"运单|快递单|物流单|快递|tracking|waybill"),
        ("payment", r"支付单|交易单|交易|流水|transaction|payment"),
        ("order", r"订单|单号|order"),
    )
)
_PREFIXED_ID = re.compile(
    r"(?<![A-Za-z0-9])(?P<p>ORD|RFD|RF|REF|PAY|TXN|SHP)[-_]?[A-Za-z0-9\-]*\d", re.I
)
_PREFIX_KIND = {"ord": "order", "rfd": "refund", "rf": "refund", "ref": "refund", "pay": "payment"}
_PREFIX_KIND.update({"txn": "payment", "shp": "shipment"})
_CLAIM_WISH = _rx(
    r"希望|(?<![申邀])请|麻烦|能不能|可以|尽快|最好|帮我",
    _w(r"please|hope|could you|can you|make sure|asap"),
)
_NEGATIVE_STATUS = re.compile(r"没|未|不|" + _w(r"not|never|hasn't|haven't|didn't|isn't|wasn't"))

# Self-statements
_SELF_LEAD_ZH = r"^(?:其实|另外|还有|对了|顺便说一下|顺便|而且|并且|补充一下)?\s*"
_SELF_ZH = re.compile(
    _SELF_LEAD_ZH
    + r"我(?:本人|自己)?(?:现在|目前|一直|平时|平常|一般|通常|向来|从来|从小|也|还|都|其实|本身"
    r"|基本上?|每天|比较|特别|很|非常|最|只)*"
    r"(?:是(?!说|不是|想|要|来|问|在|否|因为|打算|第|刚|昨|今|前天|上次|这次|那|个意思|的)"
    r"|喜欢|爱吃|爱喝|爱看|爱|偏爱|热爱|不喜欢|讨厌|受不了|怕|不爱|吃素|不吃|只吃|不喝|只喝|不抽烟|不吸烟"
    r"|不喝酒|不能吃|不能喝|忌口|戒|对.{1,12}过敏|过敏|住在|住(?!院)|生活在|在.{1,10}(?:工作|上班|住|生活"
    r"|读书|上学)|来自|出生在|出生于|老家|做.{1,8}(?:工作|的)|从事|当|上夜班|上晚班|值夜班|夜班|倒班"
    r"|有(?!点|些|一点|问题|个问题|事|空|没有)|养了|养|习惯|穿|身高|体重|会说|只会|用的是|在用)"
)
_SELF_MY_ZH = re.compile(
    _SELF_LEAD_ZH + r"我的(?!订单|快递|包裹|退款|运单|物流)\S{1,10}?(?:是|为|叫)"
)
_SELF_EN = re.compile(
    r"^(?:(?:also|and|btw|by the way|actually|fyi|just so you know|oh|well|for the record)[, ]+)?"
    r"(?:(?:i'm|im|i am)\s+(?:a|an)\s+(?!bit\b|little\b|lot\b|few\b)[a-z]"
    r"|(?:i'm|im|i am)\s+(?:not\s+)?(?:vegetarian|vegan|pescatarian|allergic|lactose[- ]intolerant"
    r"|gluten[- ](?:free|intolerant)|diabetic|pregnant|left[- ]handed|right[- ]handed|deaf|blind"
    r"|colou?r[- ]?blind|married|single|divorced|widowed|retired|self[- ]employed|unemployed"
    r"|muslim|christian|jewish|buddhist|hindu|catholic|kosher|halal|introverted|extroverted"
    r"|short[- ]sighted|near[- ]sighted|hard of hearing|disabled|based)\b"
    r"|(?:i'm|im|i am)\s+(?:from|originally from|living in|\d{1,3}\b)"
    r"|i\s+(?:live|reside|work|grew up|was born|come from|moved to|have lived|speak)\b"
    r"|i\s+(?:don't|do not|never|can't|cannot|only)\s+(?:eat|drink|smoke|use|wear|fly|drive)\b"
    r"|i\s+(?:(?:usually|always|normally|often|never|rarely|really)\s+)?(?:eat|drink|like|love"
    r"|enjoy|prefer|hate|dislike|wear|own|shop|sleep|go to bed|wake up|get up)\b"
    r"|i\s+have\s+(?:a|an|two|three|four|five|\d+)\s+(?!question|problem|issue|complaint|query"
    r"|concern|order|package|refund)"
    r"|my\s+(?!order|package|parcel|refund|payment|delivery|shipment|tracking)[a-z' ]{1,30}?\s+"
    r"(?:is|are)\b)"
)
_SELF_BLOCK = _rx(
    r"这个|那个|你们|您|它|昨天|今天|刚才|刚刚|上周|上个月|前天|这次|那次|刚|买的|下单|订单|快递|包裹|退款"
    r"|收到|投诉|住院|号码|手机号|邮箱|地址|电话|微信号|账号",
    _w(
        r"this|that|it|you|your|these|those|yesterday|today|just now|last (?:week|time|month|night)"
        r"|this morning|ago|ordered|bought|received|order|package|parcel|refund|delivery"
        r"|waiting|calling|writing|trying|looking|going|here|sorry|e-?mail address|phone number"
        r"|address|number"
    ),
)
_THIRD_SUBJECT_ZH = re.compile(_SELF_LEAD_ZH + rf"(?P<who>{_THIRD_ZH})")
_THIRD_SUBJECT_EN = re.compile(
    rf"^(?P<who>(?:my|our)\s+(?:{_REL_EN})|he|she|they)\s+(?P<verb>[a-z']+)"
)

_TRAILING = re.compile(r"[\s。！？!?；;，,.、~～…:：]+$")
_LEADING = re.compile(r"^[\s，,、:：;；-]+")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LATIN_WORD = re.compile(r"[A-Za-z]+")


# --------------------------------------------------------------------------------------------
# Clauses


@dataclass(frozen=True)
class _Part:
    """A piece of a clause, verbatim (`raw`) and folded (`norm`)."""

    raw: str
    norm: str
    question: bool
    order: int


@dataclass(frozen=True)
class _Clause:
    raw: str
    norm: str
    question: bool
    parts: tuple[_Part, ...]
    order: int


@dataclass(frozen=True)
class _Pref:
    key: str
    value: dict[str, Any]
    negated: bool
    confidence: float
    clause: str
    order: int


_SENTENCE_END = frozenset("。！？!?；;\n｡．")
_CLAUSE_END = frozenset("，,")
_CONTRAST = re.compile(
    r"但是|不过|可是|然而|(?<!不)但(?!愿)|(?<![A-Za-z])(?:but|however|though)(?![A-Za-z])", re.I
)


def _clean(raw: str) -> str:
    return _LEADING.sub("", _TRAILING.sub("", raw.strip()))


def _split_sentences(text: str) -> list[list[tuple[str, str]]]:
    """Sentences, each a list of (clause verbatim, the punctuation that ended it)."""
    sentences: list[list[tuple[str, str]]] = []
    clauses: list[tuple[str, str]] = []
    start = 0
    n = len(text)
    for i, ch in enumerate(text):
        end_sentence = ch in _SENTENCE_END
        if ch == "." and (i + 1 == n or text[i + 1].isspace() or _CJK.match(text[i + 1])):
            end_sentence = not (
                i > 0 and text[i - 1].isdigit() and i + 1 < n and text[i + 1].isdigit()
            )
        end_clause = ch in _CLAUSE_END and not (
            ch == "," and 0 < i < n - 1 and text[i - 1].isdigit() and text[i + 1].isdigit()
        )
        if end_sentence or end_clause:
            clauses.append((text[start:i], ch))
            start = i + 1
            if end_sentence:
                sentences.append(clauses)
                clauses = []
    if start < n:
        clauses.append((text[start:], ""))
    if clauses:
        sentences.append(clauses)
    return sentences


def _verbatim(raw: str) -> str:
    """The clause as it stands in the utterance: only surrounding blanks and punctuation cut."""
    return _LEADING.sub("", _TRAILING.sub("", raw)).strip()


def _clauses(text: str) -> list[list[_Clause]]:
    out: list[list[_Clause]] = []
    order = 0
    for sentence in _split_sentences(text):
        clauses: list[_Clause] = []
        for raw, term in sentence:
            raw = _verbatim(raw)
            if not raw:
                continue
            question = term in ("?", "？")
            pieces = [p for p in (_verbatim(x) for x in _CONTRAST.split(raw)) if p]
            parts = tuple(
                _Part(p, fold(p), question and i == len(pieces) - 1, order + i)
                for i, p in enumerate(pieces)
            )
            clauses.append(_Clause(raw, fold(raw), question, parts, order))
            order += max(1, len(parts))
        if clauses:
            out.append(clauses)
    return out


def _is_chinese(text: str) -> bool:
    return len(_CJK.findall(text)) >= max(1, len(_LATIN_WORD.findall(text)))


def _is_question(p: _Part) -> bool:
    norm = p.norm.strip()
    if _POLITE_TAIL.search(norm.rstrip("?？ ")):
        return False
    return p.question or bool(_Q_START.match(norm) or _Q_ANY.search(norm.rstrip("?？ ")))


def _is_temporary(norm: str) -> bool:
    if _STANDING.search(norm):
        return False
    if _TEMPORARY.search(norm) or _ONE_OFF_OBJECT.search(norm):
        return True
    return bool(_FIRST_THEN.search(norm) and _FIRST_THEN_TAIL.search(norm))


def _one_off_context(norm: str) -> bool:
    """A part that sets a one-off context for the rest of its sentence ("这次的话", "just
    this once")."""
    return not _STANDING.search(norm) and bool(_TEMPORARY.search(norm))


Whose = Literal["user", "third", "none"]


def _whose(norm: str) -> Whose:
    """Whom a wish or statement in `norm` is about."""
    tokens = list(_PERSON_RE.finditer(norm))
    if any(t.lastgroup == "incl" for t in tokens):
        return "user"
    for t in tokens:
        if _TARGET_BEFORE.search(norm[: t.start()]):
            return "user" if t.lastgroup == "first" else "third"
    for t in tokens:
        if t.lastgroup == "first" and _OPINION_AFTER.match(norm[t.end() :]):
            continue
        return "user" if t.lastgroup == "first" else "third"
    return "none"


# --------------------------------------------------------------------------------------------
# Preferences


def _neg_before_zh(before: str) -> str | None:
    m = _NEG_ZH_BEFORE.search(before[-14:])
    return m.group("neg") if m else None


def _neg_before_en(before: str) -> str | None:
    words = before.split()
    for n in range(1, min(len(words), 7) + 1):
        head = " ".join(words[-n:])
        for m in _NEG_EN_RE.finditer(head):
            if m.start() != 0 and head[m.start() - 1] != " ":
                continue
            rest = head[m.end() :].split()
            if head[: m.start()].strip() == "" and all(w.strip(",.'") in _GLUE_EN for w in rest):
                return m.group().removeprefix("please ").strip()
    return None


def _negation(norm: str, start: int, end: int) -> str | None:
    """The negation word that denies the mention at norm[start:end], if any."""
    before = norm[:start]
    neg = _neg_before_zh(before) or _neg_before_en(before)
    if neg is not None:
        return neg
    m = _NEG_ZH_AFTER.match(norm[end : end + 10])
    return m.group("neg") if m else None


def _neg_confidence(neg: str) -> float:
    return WEAK if neg in _NEG_ZH_WEAK or neg in _NEG_EN_WEAK else STRONG


Role = Literal["pos", "neg", "alt"]


def _roles(norm: str, mentions: list[Mention]) -> list[tuple[Mention, Role, str | None]]:
    out: list[tuple[Mention, Role, str | None]] = []
    for i, m in enumerate(mentions):
        start, end, _ = m
        before = norm[:start]
        if (
            _ALT_BEFORE.search(before)
            and not _NEG_ZH_BEFORE.search(before[-14:])
            and not _NOT_BEFORE.search(before)
        ):
            out.append((m, "alt", None))
            continue
        if re.search(_w("over") + r"\s+$", before) and i > 0:
            out.append((m, "alt", None))
            continue
        if _ALT_AFTER.match(norm[end:]):
            out.append((m, "alt", None))
            continue
        neg = _negation(norm, start, end)
        if neg is None and re.search(r"不是\s*(?:用|发|打|通过)?\s*$", before):
            neg = "不是"
        out.append((m, "neg", neg) if neg is not None else (m, "pos", None))
    return out


def _pick(norm: str, positives: list[Mention]) -> str | None:
    values = {m[2] for m in positives}
    if len(values) == 1:
        return values.pop()
    prioritised = {m[2] for m in positives if _PRIORITY_BEFORE.search(norm[: m[0]])}
    return prioritised.pop() if len(prioritised) == 1 else None


_PHONE_VERB_NEG = re.compile(
    rf"{_NEG_ZH}(?:再)?(?:给我|往我这)?打(?!扰|开|折|包|印|算|车|听|款|卡|字|分|架|游|球|针|工|理|扫|招)"
)


def _allowed_question(p: _Part, *, negation: bool) -> bool:
    """A question that is in fact a request (standing marker, switch, or stop)."""
    if not _is_question(p):
        return True
    if _WHY.search(p.norm):
        return False
    if _STANDING.search(p.norm) or _SWITCH.search(p.norm):
        return True
    return negation


def _channel_prefs(p: _Part) -> list[_Pref]:
    norm = p.norm
    if _CONTENT_BLOCK.search(norm) or _WHY_BLOCK.search(norm):
        return []
    mentions = [
        m
        for m in find_channels(p.raw)
        if not (_DETERMINER_BEFORE.search(norm[: m[0]]) and norm[m[0] : m[1]].isascii())
    ]
    if not mentions:
        if _PHONE_VERB_NEG.search(norm) and _allowed_question(p, negation=True):
            hit = _NEG_ZH_BEFORE.search(norm)
            conf = _neg_confidence(hit.group("neg")) if hit else STRONG
            return [_Pref(NOTIFICATION, {"channel": "phone"}, True, conf, p.raw, p.order)]
        return []
    roles = _roles(norm, mentions)
    positives = [m for m, role, _ in roles if role == "pos"]
    out: list[_Pref] = []
    past = bool(_PAST_BLOCK.search(norm) and not _STANDING.search(norm))
    cue = bool(_STRONG_CUE.search(norm) or _WEAK_CUE.search(norm))
    if positives and not past and cue and _allowed_question(p, negation=False):
        channel = _pick(norm, positives)
        if channel is not None:
            conf = STRONG if _STRONG_CUE.search(norm) or _STANDING.search(norm) else WEAK
            value = {"channel": channel}
            out.append(_Pref(NOTIFICATION, value, False, conf, p.raw, p.order))
    if not out and _allowed_question(p, negation=True):
        seen: set[str] = set()
        for m, role, neg in roles:
            if role == "neg" and neg is not None and m[2] not in seen:
                seen.add(m[2])
                out.append(
                    _Pref(
                        NOTIFICATION,
                        {"channel": m[2]},
                        True,
                        _neg_confidence(neg),
                        p.raw,
                        p.order,
                    )
                )
    return out


def _language_prefs(p: _Part) -> list[_Pref]:
    norm = p.norm
    if _LANG_BLOCK.search(norm) or _CONTENT_BLOCK.search(norm):
        return []
    mentions = [m for m in find_languages(p.raw) if not _LANG_NOUN_AFTER.match(norm[m[1] :])]
    if not mentions:
        return []
    english = not _CJK.search(norm)
    has_language_word = bool(_LANGUAGE_WORD.search(norm))
    positives: list[Mention] = []
    negatives: list[tuple[Mention, float]] = []
    for m in mentions:
        start, end, _ = m
        before, after = norm[:start], norm[end:]
        if _LANG_CANT.search(before):
            negatives.append((m, WEAK))
            continue
        neg_zh = _LANG_NEG_BEFORE.search(before[-12:])
        neg_en = _neg_before_lang_en(before)
        if neg_zh or neg_en or _LANG_NEG_AFTER.match(after):
            word = neg_zh.group("neg") if neg_zh else (neg_en or "不要")
            negatives.append((m, _neg_confidence(word)))
            continue
        if _ALT_BEFORE.search(before) or _ALT_AFTER.match(after):
            continue
        pos = bool(_LANG_POS_BEFORE.search(before) or has_language_word)
        if not pos and _LANG_POS_AFTER.match(after):
            pos = bool(before.strip() == "" or _LANG_POS_BEFORE.search(before) or not english)
            if english and before.strip() == "":
                pos = True
        if pos and english and not (_LANG_COMM_EN.search(norm) or has_language_word):
            pos = bool(re.match(r"^\s*" + _w("please|only"), after))
        if not pos and english and _LANG_ALONE.match(norm[:start] + norm[end:]):
            pos = True  # "In English." / "English, please"
        if pos:
            positives.append(m)
    out: list[_Pref] = []
    if positives and _allowed_question(p, negation=False):
        tag = _pick(norm, positives)
        if tag is not None:
            conf = STRONG if _LANG_STRONG.search(norm) or _STANDING.search(norm) else WEAK
            out.append(_Pref(LANGUAGE, {"value": tag}, False, conf, p.raw, p.order))
    if not out and _allowed_question(p, negation=True):
        seen: set[str] = set()
        for m, conf in negatives:
            if m[2] not in seen:
                seen.add(m[2])
                out.append(_Pref(LANGUAGE, {"value": m[2]}, True, conf, p.raw, p.order))
    return out


def _neg_before_lang_en(before: str) -> str | None:
    words = before.split()
    for n in range(1, min(len(words), 6) + 1):
        head = " ".join(words[-n:])
        m = _NEG_EN_RE.match(head)
        if m is None:
            continue
        if all(w.strip(",.'") in _LANG_GLUE_EN for w in head[m.end() :].split()):
            return m.group().removeprefix("please ").strip()
    return None


def _timezone_prefs(p: _Part) -> list[_Pref]:
    norm = p.norm
    if not _TZ_CUE.search(norm) or not _allowed_question(p, negation=False):
        return []
    zone = find_timezone(p.raw)
    if zone is None:
        m = _TZ_AFTER_CUE.search(norm)
        if m is not None:
            zone = normalize_timezone(m.group("zone"))
    if zone is None:
        return []
    return [_Pref(TIMEZONE, {"value": zone}, False, STRONG, p.raw, p.order)]


def _hours_prefs(p: _Part, zone: str) -> list[_Pref]:
    norm = p.norm
    if not (_CONTACT_VERB.search(norm) or _QUIET_MARK.search(norm) or _CONTACT_NEG.search(norm)):
        return []
    quiet = bool(
        _QUIET_MARK.search(norm)
        or _CONTACT_NEG.search(norm)
        or _NO_CONTACT_EN.search(norm)
        or (_UNAVAILABLE.search(norm) and _CONTACT_VERB.search(norm))
    )
    if quiet:
        value = normalize_quiet_hours(p.raw, zone)
        if value is None or not _allowed_question(p, negation=True):
            return []
        return [_Pref(NOTIFICATION, {"quiet_hours": value}, False, STRONG, p.raw, p.order)]
    value = normalize_hours(p.raw, zone)
    if value is None or not _allowed_question(p, negation=False):
        return []
    if _PAST_BLOCK.search(norm) or _CONTENT_BLOCK.search(norm):
        return []
    conf = STRONG if _HOURS_STRONG.search(norm) or _STANDING.search(norm) else WEAK
    return [_Pref(CONTACT_HOURS, {"value": value}, False, conf, p.raw, p.order)]


def _prefs(p: _Part, zone: str) -> list[_Pref]:
    """Every profile preference a part states (before temporary / third-party checks)."""
    hours = _hours_prefs(p, zone)
    out = [*_timezone_prefs(p), *_language_prefs(p), *hours]
    if not hours:
        out.extend(_channel_prefs(p))
    return out


# --------------------------------------------------------------------------------------------
# Claims, remember requests, self-statements


def _claim(raw: str, norm: str) -> Candidate | None:
    if not norm.strip():
        return None
    entities = [name for name, rx in _ENTITY if rx.search(norm)]
    status: str | None = None
    status_text = ""
    for name, rx in _STATUS:
        m = rx.search(norm)
        if m is not None:
            status, status_text = name, m.group()
            break
    if status is None:
        return None
    if status == "generic":
        if not entities:
            return None
        status = entities[0]
    elif status not in entities and not entities:
        return None
    question = bool(_Q_START.match(norm.strip()) or _Q_ANY.search(norm.rstrip("?？ ")))
    if (question or norm.rstrip().endswith(("?", "？"))) and not _WHY.search(norm):
        return None
    if _CLAIM_WISH.search(norm) and not _NEGATIVE_STATUS.search(status_text):
        return None
    subject = _subject(raw, status)
    return Candidate(
        kind="semantic",
        key=_KEY_OF[status],
        content=normalize_whitespace(_clean(raw)),
        source_type="user_assertion",
        confidence=CLAIM,
        subject_ref=subject,
    )


def _subject(raw: str, entity: str) -> str:
    text = fold(raw) if len(fold(raw)) == len(raw) else raw
    found: list[tuple[int, int, str, str]] = []
    for prefix, rx in _LABELLED_IDS:
        for m in rx.finditer(text):
            ident = raw[m.start("id") : m.end("id")].rstrip("-_")
            found.append((m.start("id"), m.start(), prefix, ident))
    for m in _PREFIXED_ID.finditer(raw):
        kind = _PREFIX_KIND[m.group("p").lower()]
        found.append((m.start(), m.start(), kind, m.group().rstrip("-_")))
    if found:
        _, _, prefix, ident = min(found)
        return f"{prefix}:{ident}"
    return f"{_ENTITY_PREFIX[entity]}:unknown"


def _remember_rest(clause: _Clause) -> str | None:
    """What a "remember that ..." clause asks to keep (verbatim), "" when it continues in the
    next clause, None when the clause is not such a request."""
    for rx in (_REMEMBER_ZH, _REMEMBER_EN):
        m = rx.match(clause.norm)
        if m is None:
            continue
        rest_norm = clause.norm[m.end() :]
        if re.match(r"^(?:了|to\s)", rest_norm) or (
            rx is _REMEMBER_EN and rest_norm.startswith("me")
        ):
            return None
        cut = len(clause.raw) - len(rest_norm) if len(clause.norm) == len(clause.raw) else None
        rest = clause.raw[cut:] if cut is not None else rest_norm
        return "" if _REMEMBER_EMPTY.match(rest) else _clean(rest)
    return None


def _self_statement(norm: str) -> bool:
    s = norm.strip()
    if not s or len(s) > 60 or _SELF_BLOCK.search(s):
        return False
    return bool(_SELF_ZH.match(s) or _SELF_MY_ZH.match(s) or _SELF_EN.match(s))


_EN_VERB_AS_FIRST = {"is": "am", "'s": "am", "are": "am", "was": "was", "has": "have"}
_EN_VERB_AS_FIRST.update({"doesn't": "don't", "does": "do", "isn't": "am not"})


def _third_party_statement(norm: str) -> bool:
    """The shape of a self-statement, about someone else ("我老婆是素食主义者", "he lives in
    Berlin")."""
    s = norm.strip()
    m = _THIRD_SUBJECT_ZH.match(s)
    if m is not None and not m.group("who").startswith(("我们", "我和")):
        swapped = s[: m.start("who")] + "我" + s[m.end("who") :]
        if _self_statement(swapped):
            return True
    m2 = _THIRD_SUBJECT_EN.match(s)
    if m2 is not None:
        verb = m2.group("verb")
        first = _EN_VERB_AS_FIRST.get(verb, verb[:-1] if verb.endswith("s") else verb)
        if verb.endswith("ies"):
            first = verb[:-3] + "y"
        swapped = "i " + first + s[m2.end("verb") :]
        return _self_statement(swapped)
    return False


# --------------------------------------------------------------------------------------------
# Content


_CHANNEL_ZH = {
    "sms": "短信",
    "email": "邮件",
    "phone": "电话",
    "app_push": "App 推送",
    "wechat": "微信",
}
_CHANNEL_EN = {"sms": "SMS", "email": "email", "phone": "phone", "app_push": "app push"}
_CHANNEL_EN["wechat"] = "WeChat"
_LANG_ZH = {
    "zh-CN": "中文",
    "zh-TW": "繁体中文",
    "yue": "粤语",
    "en": "英文",
    "ja": "日语",
    "ko": "韩语",
}
_LANG_ZH.update({"fr": "法语", "de": "德语", "es": "西班牙语", "it": "意大利语", "ru": "俄语"})
_LANG_ZH.update({"pt": "葡萄牙语", "en-GB": "英式英文", "en-US": "美式英文", "zh-Hans": "简体中文"})
_LANG_EN = {"zh-CN": "Chinese", "zh-TW": "Traditional Chinese", "yue": "Cantonese"}
_LANG_EN.update({"en": "English", "ja": "Japanese", "ko": "Korean", "fr": "French"})
_LANG_EN.update({"de": "German", "es": "Spanish", "it": "Italian", "ru": "Russian"})
_LANG_EN.update({"pt": "Portuguese", "en-GB": "British English", "en-US": "American English"})


def _hours_text(value: str) -> str:
    rng, _, zone = value.partition(" ")
    return f"{rng} ({zone})" if zone else rng


def _content(key: str, value: dict[str, Any], *, negated: bool, zh: bool) -> str:
    if key == NOTIFICATION:
        channel, quiet = value.get("channel"), value.get("quiet_hours")
        parts: list[str] = []
        if channel is not None:
            if zh:
                parts.append(
                    f"用户不再希望{_CHANNEL_ZH[channel]}通知"
                    if negated
                    else f"用户偏好{_CHANNEL_ZH[channel]}通知"
                )
            else:
                name = _CHANNEL_EN[channel]
                parts.append(
                    f"User no longer wants {name} notifications"
                    if negated
                    else f"User prefers {name} notifications"
                )
        if quiet is not None:
            if zh:
                parts.append(f"{'' if parts else '用户希望 '}{_hours_text(quiet)} 免打扰")
            else:
                lead = "do not disturb" if parts else "User does not want to be disturbed"
                parts.append(f"{lead} {_hours_text(quiet)}")
        return ("，" if zh else "; ").join(parts)
    if key == LANGUAGE:
        tag = str(value["value"])
        if zh:
            name = _LANG_ZH.get(tag, tag)
            return f"用户不希望用{name}回复" if negated else f"用户希望用{name}回复"
        name = _LANG_EN.get(tag, tag)
        return (
            f"User does not want replies in {name}"
            if negated
            else f"User prefers replies in {name}"
        )
    if key == TIMEZONE:
        return f"用户的时区是 {value['value']}" if zh else f"User's timezone is {value['value']}"
    if key == CONTACT_HOURS:
        when = _hours_text(str(value["value"]))
        return f"用户希望在 {when} 联系" if zh else f"User prefers to be contacted {when}"
    return str(value)


# --------------------------------------------------------------------------------------------
# The extractor


@dataclass
class _Collected:
    prefs: list[_Pref]
    semantic: list[tuple[int, ExtractedCandidate]]
    skipped: list[tuple[int, Skipped]]


class RuleExtractor:
    """Offline, deterministic extraction for Chinese and English (see the module docstring)."""

    info = ExtractorInfo(name="rule-extractor", version="2")

    def extract(self, text: str, *, default_timezone: str) -> Extraction:
        zone = normalize_timezone(default_timezone)
        if zone is None:
            raise InvalidInput(f"unknown time zone {default_timezone!r}", field="default_timezone")
        zh = _is_chinese(text)
        got = _Collected([], [], [])
        for sentence in _clauses(text):
            self._sentence(sentence, zone, got)
        items = self._profile_candidates(got.prefs, zh) + got.semantic
        return Extraction(
            candidates=self._ordered(items), skipped=self._dedupe_skipped(got.skipped)
        )

    # -- per sentence

    def _sentence(self, clauses: list[_Clause], zone: str, got: _Collected) -> None:
        one_off = False
        topic_third = False
        last_whose: Whose = "none"
        remember_next = False
        for clause in clauses:
            if remember_next:
                remember_next = False
                self._remember(clause, clause.raw, zone, got)
                continue
            rest = _remember_rest(clause)
            if rest is not None:
                if rest == "":
                    remember_next = True
                else:
                    self._remember(clause, rest, zone, got)
                continue
            leftover: list[_Part] = []
            for part in clause.parts:
                if _TOPIC.match(part.norm.strip()):
                    topic_third = True
                    continue
                whose = _whose(part.norm)
                if whose == "none" and (topic_third or _CONTINUES.match(part.norm.strip())):
                    whose = "third" if topic_third else last_whose
                temporary = _is_temporary(part.norm) or (
                    one_off and not _STANDING.search(part.norm)
                )
                prefs = _prefs(part, zone)
                if prefs:
                    for pref in prefs:
                        self._route(pref, whose, temporary, got)
                elif whose == "third" and _third_party_statement(part.norm):
                    got.skipped.append((part.order, Skipped(reason="third_party", clause=part.raw)))
                else:
                    leftover.append(part)
                if _one_off_context(part.norm):
                    one_off = True
                if whose != "none":
                    last_whose = whose
            if leftover:
                self._facts(clause, leftover, got)

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

    def _facts(self, clause: _Clause, parts: list[_Part], got: _Collected) -> None:
        """Business claims (on the clause minus its preference parts), then self-statements."""
        if len(parts) == len(clause.parts):
            raw, norm = clause.raw, clause.norm
        else:
            raw = "，".join(p.raw for p in parts)
            norm = fold(raw)
        claim = _claim(raw, norm)
        if claim is not None:
            clause_text = clause.raw if len(parts) == len(clause.parts) else parts[0].raw
            got.semantic.append(
                (parts[0].order, ExtractedCandidate(candidate=claim, clause=clause_text))
            )
            return
        for part in parts:
            if _is_question(part) or not _self_statement(part.norm):
                continue
            if _whose(part.norm) == "third":
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

    def _remember(self, clause: _Clause, rest: str, zone: str, got: _Collected) -> None:
        """An explicit request to remember `rest` (said in `clause`)."""
        norm = fold(rest)
        part = _Part(rest, norm, clause.question, clause.order)
        if clause.question and _is_question(part):
            return
        prefs = _prefs(part, zone)
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
        claim = _claim(clause.raw, fold(clause.raw))
        if claim is not None:
            claim = claim.model_copy(update={"content": normalize_whitespace(_clean(rest))})
            got.semantic.append(
                (clause.order, ExtractedCandidate(candidate=claim, clause=clause.raw))
            )
            return
        if _whose(norm) == "third" and not re.match(r"^\s*我(?!的?(?:" + _REL_ZH + "))", norm):
            got.skipped.append((clause.order, Skipped(reason="third_party", clause=clause.raw)))
            return
        content = normalize_whitespace(_clean(rest))
        if not content:
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
        keys = sorted(
            {p.key for p in prefs}, key=lambda k: min(p.order for p in prefs if p.key == k)
        )
        for key in keys:
            positive = [p for p in prefs if p.key == key and not p.negated]
            negative = [p for p in prefs if p.key == key and p.negated]
            merged: dict[str, Any] = {}
            used: list[_Pref] = []
            fields = sorted({f for p in positive for f in p.value})
            for field in fields:
                options = [p for p in positive if field in p.value]
                best = max(options, key=lambda p: (p.confidence, p.order))
                merged[field] = best.value[field]
                used.append(best)
            if used:
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
                out.append(
                    (first.order, ExtractedCandidate(candidate=candidate, clause=first.clause))
                )
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
                    (
                        p.order,
                        ExtractedCandidate(candidate=candidate, clause=p.clause, negated=True),
                    )
                )
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
