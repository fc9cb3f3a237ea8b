"""The cue tables clauses and preferences are read with: standing and one-off markers,
questions, negation, channel choice, persons, languages, time zones, hours, text shape.

Every pattern runs on folded text (NFKC, lower case), see normalize.fold. The cues of business
claims, requests to remember and self-statements live in `claims`, beside the code that reads
them.
"""

from __future__ import annotations

import re


def _w(pattern: str) -> str:
    """An ASCII word pattern bounded by non-letters (works next to CJK text), its negative
    contractions also read without their apostrophe (`_unpunctuated`)."""
    return rf"(?<![a-z0-9'])(?:{_unpunctuated(pattern)})(?![a-z0-9])"


def _rx(*parts: str, flags: int = 0) -> re.Pattern[str]:
    return re.compile("|".join(f"(?:{_unpunctuated(p)})" for p in parts), flags)


def _unpunctuated(pattern: str) -> str:
    """`pattern` with each "n't" also matching "nt": people typing fast leave the apostrophe
    out ("the tracking hasnt moved", "i dont do dairy"). (No pattern here holds one in a
    lookbehind, where the optional character would not compile.)"""
    return pattern.replace("n't", "n'?t")


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
    r"|就这一次|一次性|马上|立刻|现在(?!改|换|切|起|开始)|晚点|晚一点|稍后|待会|等会|一会儿|回头",
    _w(
        r"this time|just this once|this once|just once|only once|for now|today|tonight|tomorrow"
        r"|this (?:week|weekend|morning|afternoon|evening)|right now|right away|at the moment"
        r"|for the moment|temporarily|for the time being"
        r"|(?:just\s+|only\s+)?for this (?:order|one|purchase|item|message|reply|email|chat"
        r"|conversation)"
        r"|this (?:order|package|parcel|delivery|invoice|shipment|refund|purchase|return|issue"
        r"|complaint|case|ticket|claim|problem|exchange|matter)|next time"
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
        # (not a choice settled: "email it is")
        r"|get back to me|(?:send|email|e-mail|text|mail) (?:it|this|that)(?!\s+is\s*[.!]*$)"
        r"|me (?:it|this|that)"
        r"|when (?:it|this|that|(?:the|my) (?:order|package|parcel|item|refund|shipment|delivery))"
        r"|(?:it|this|that) to me"
    ),
)

_Q_START = re.compile(
    r"^(?:为什么|为啥|怎么|能不能|能否|可不可以|可否|是不是|是否|有没有|难道|请问"
    r"|(?:can|could|would(?!\s+(?:really\s+|much\s+)?(?:love|appreciate|prefer)\s+(?:it\s+if|if|you)\b)|will|do|does|did|is|are|have|has|had|why|what|when|where|how"
    r"|who|which|should|shall|may|might|any chance"
    # (not a subject left out before what happened to the user: "was charged twice for order 5")
    r"|(?:was|were)(?!\s+(?:charged|billed|overcharged|double[- ]charged|refunded|sent|given|told"
    r"|promised|shipped|delivered|issued)(?![a-z])))(?![a-z]))"
)
_Q_ANY = re.compile(r"是不是|为什么|为啥|怎么回事|什么时候|多久|(?:吗|么|嘛|呢)$")
_POLITE_TAIL = re.compile(
    r"(?:好吗|好不好|行吗|行不行|可以吗|可以不|成吗|(?<![a-z])(?:ok|okay|alright|please|pls"
    r"|thanks|thank you))$"
)
_WHY = re.compile(r"为什么|为啥|怎么|" + _w(r"why|how come"))
_SWITCH = _rx(
    r"改成|改为|换成|改用|换用|切换|改到|换到|改回|换回|切回",
    _w(r"switch(?:ed)? (?:back )?to|change (?:back )?to|instead"),
)

_NEG_ZH = (
    r"(?:别再|不要再|不用再|再也不要?|别(?!人|的|处|家|忘)|不要(?!忘)|不用|不需要|不必|无需|甭|不想|不愿意?"
    r"|不希望|不喜欢|讨厌|停止|停掉|停发|取消|关掉|关闭|退订|不再|不接受?|不看|拒绝|禁止|勿"
    # a channel the user hardly uses ("微信我不常用")
    r"|不常用|很少用|不怎么用|不太用"
    # Cantonese ("唔好再经微信搵我", "冇用微信好耐") and a channel no longer used ("没用微信了")
    r"|唔好|唔要|唔使|唔用|冇用|没用|没在用)"
)
_NEG_ZH_WEAK = {
    "不喜欢",
    "讨厌",
    "不看",
    "不接",
    "不接受",
    "不方便",
    "不常用",
    "很少用",
    "不怎么用",
    "不太用",
    "冇用",
    "没用",
    "没在用",
}
_NEG_EN = (
    r"(?:please )?(?:don't|dont|do not|never|stop|quit|no more|no longer|(?:there's )?no need"
    r"(?: to| for)?|needn't|not|no|cease"
    r"|unsubscribe(?: me)?(?: from)?|opt(?: me)? out(?: of)?|cancel|hate|dislike|can't stand"
    r"|won't|will not|wouldn't|would not|without|avoid|rather not|prefer not(?: to)?)"
)
_NEG_EN_WEAK = {"not", "hate", "dislike", "can't stand", "without", "avoid"}
_GLUE_ZH = (
    r"(?:再|给|我|发|打|用|通过|走|以后|今后|都|就|也|还|任何|了|个|条|封|一个|一条|一封|来|过|去|的|接"
    r"|收|看|什么|那么多|这么多|老|总|跟|和|往|向|到|手机|这种|那种|这些|那些|是|使用|发送|推送|联系|在"
    r"|打扰|你们|您们?|你|回访|售后|客服|经|搵"
    # how often or when ("别每天都发邮件", "不要半夜推送"): the channel is still not wanted
    r"|每天|天天|老是|总是|一直|经常|频繁|半夜|大半夜|晚上|大清早|早上|凌晨|深夜|又|这么|那么|\s)*"
)
_GLUE_EN_LIST = (
    "me any more to by via through on over with send sending use using a an the those these"
    " please again ever just really so many want wanna like get getting receive receiving be"
    " being contacted called texted emailed reached notified bother bothering them anymore of"
    " from you your lot lots as at all calling texting emailing messaging phone for updates"
    " notifications sent i do need need to give making make"
    # what the user does not do with a channel: "I never check email", "don't read texts"
    " check checking read reading open"
    # what kind of call or message it is: "no more voice calls", "stop the follow-up calls"
    " voice follow-up followup automated robo courtesy check-in sales"
    # how the channel would reach the user: "don't contact me on WhatsApp", "never ping me"
    " contact contacting message messaging ping dm reach"
)
_GLUE_EN = frozenset(_GLUE_EN_LIST.split())
_NEG_ZH_BEFORE = re.compile(f"(?P<neg>{_NEG_ZH}){_GLUE_ZH}$")
_NEG_ZH_AFTER = re.compile(
    rf"^\s*(?:通知|提醒|推送|消息|联系)?\s*(?:我|就|也|都|以后|再|还是|的话|平时"
    # no longer ("我那个邮箱早就不用了", "微信已经不用了")
    rf"|早|早就|已经|早已|基本|根本|从来|好久|很久)*\s*(?P<neg>{_NEG_ZH})"
)
_NEG_EN_RE = re.compile(_w(_NEG_EN))

_CONTENT_BLOCK = _rx(
    r"验证码|营销|广告|推广|推销|促销|优惠券|垃圾|骚扰|诈骗|收到了|没收到|没有收到|收不到|未收到|已收到|刚收到"
    r"|收到的|发不出|打不通|打不进|用不了|不好用|坏了|故障|是不是|打不开|点不开|看不到|看不了|看不见|乱码"
    r"|(?:邮件|短信|邮箱|微信)(?:里|中)的|没人接|没人回|没人理|占线|没接到|接不到|漏接"
    # a message that came, a channel switched off: "银行短信都来了", "app通知我全关了"
    r"|(?:短信|邮件|电话|通知)(?:都|也)?来了|(?:全|都)关了|关掉了|全关",
    _w(
        r"marketing|promotional|promos?|promotions?|newsletters?|spam|ads|adverts?|advertising"
        r"|verification|otp|one-time|scam|didn't get|did not get|don't get|not getting"
        r"|haven't (?:got|gotten|received)|never (?:got|received)|can't receive|cannot receive"
        r"|not receiving|didn't receive|did not receive|received|got your|got the|broken"
        r"|not working|doesn't work"
        # a document's format, not how to be told things ("a PDF by email is fine", "my
        # receipts by email")
        r"|(?:pdfs?|invoices?|receipts?|statements?|bills?)\b[^.,;!?]{0,20}?\b(?:by|via|over|as\s+an?)"
        r"\s+e-?mail"
    ),
)
_PAST_BLOCK = _rx(
    r"以前|之前|原来|过去|上次|刚才|刚刚|前面说|先前|早先|昨天|前天|发了|打了|打过|发过|已经发|已发|失败|错了"
    r"|出错|回复我的"
    r"|查收|查看|老是|老给|总给|又给|又打|又发|天天|整天|你们?(?:一直|总是)|太慢|太多",
    _w(
        r"used to|previously|last time|yesterday|sent|wrong|keeps?(?!\s+it\s+to)|kept|too many"
        r"|reply to my"
        r"|check (?:my|your)|read my|your (?:e-?mails?|texts?|messages?|calls?)"
        # a call that came ("the last call came in at 5 in the morning")
        r"|(?:the )?last (?:call|text|message|e-?mail)|came (?:in|through)|woke me"
    ),
)
_WHY_BLOCK = _WHY

_STRONG_CUE = _rx(
    r"以后|今后|往后|将来|从此|从现在|从今天|默认|一律|每次|总是|一直|始终|永远|(?<![申邀])请|麻烦|希望"
    r"|想要|想让"
    r"|想用|要用|偏好|倾向|更愿意|宁愿|宁可|优先|首选|只用|只看|只接|只收|只回|只要|只能|统一|都用|都发"
    r"|改成|改为|换成|改用|换用|切换|改回|换回|切回|通知我|联系我|找我|告诉我|提醒我|回复我|回我|发我|发给我|给我发"
    r"|给我打|打给我|打我|发到我|通知一下我|联系一下我|推送给我",
    _w(
        r"always|from now on|going forward|in (?:the )?future|by default|only|prefers?|preferred"
        r"|preferably|please|pls|would like|i'd like|i want|wants|want you to|rather"
        r"|switch(?:ed)? to|change to|instead|(?:text|txt|sms|email|e-mail|mail|call|phone|ring"
        r"|message|msg|notify|contact|reach|ping|update|inform|alert|tell|wechat|remind) me"
        r"|let me know|get in touch|keep me (?:posted|updated|informed)|best way|best to reach"
        r"|best place to (?:reach|find|contact) me|(?:basically|practically) live on"
        r"|if you need (?:me|to reach me)|keep it to|stick to"
    ),
    # (not the topic of a Chinese clause: "sms我基本不看")
    r"^(?:please |pls |just )?(?:text|txt|sms|e-?mail|call|phone|ring|message|wechat)(?![a-z0-9])"
    r"(?!\s*[\u4e00-\u9fff])"
    r"(?!\s+(?:is|are|was|were|works?|would|will|seems?|sounds?|should)(?![a-z]))",
)
_WEAK_CUE = _rx(
    r"喜欢|习惯|最好|方便|就行|就好|就可以|即可|可以了|比较好|更好|挺好|好一些|好点|靠谱|用|通过|走|发"
    r"|打|吧|行|可以|联系|比.{1,6}(?:好|方便|靠谱|快|强)|开启|开通"
    # a correction that names the right one: "是邮件不是短信", "I meant email, not SMS"
    r"|是.{1,6}不是|(?<![a-z])i meant(?! to\b)"
    # "我要邮件通知", "我要的是短信提醒"
    r"|我(?:只)?要(?:的是)?(?=.{0,4}(?:通知|提醒|联系|消息))|是要(?=.{0,6}(?:通知|提醒|推送|消息|联系))"
    # a label ("通知方式：电话")
    r"|(?:通知|联系)方式\s*[：:是为]"
    # how to be told "when there is something" ("有事短信说", "有事的话微信留言")
    r"|有事(?:情)?(?:的话|就|请|可以)?(?=\s*(?:发|用|走)?\s*(?:短信|微信|邮件|钉钉|qq|whatsapp|telegram"
    r"|line|消息)\s*(?:说|讲|聊|留言|告诉|通知|找))",
    _w(
        # ("whatsapp works for me"; "I work from home" is the user's job, no cue)
        r"likes?|loves?|fine|ok|okay|(?<!i\s)(?<!we\s)works?|better|best|good|great|easiest|easier"
        r"|convenient|uses?"
        r"|using|via|by|through|over|just|is preferred|go with|stick (?:to|with)|reach|contact"
        r"|needs?|wants?|reads?|checks?|turn on|enable|give me a ring"
        # where the user answers sooner ("i reply way faster on whatsapp than email")
        r"|(?:reply|replies|respond|answer|get back)\s+(?:\w+\s+)?(?:faster|quicker|sooner)"
        # a choice said as a plan or a second thought ("let's do WhatsApp", "no actually,
        # Telegram, I'm on there more")
        r"|let'?s (?:do|go with|use|try|stick with|make it)|no,? actually|(?:i'm|im) on (?:there"
        r"|it) (?:more|a lot|all the time)"
        # one channel set against another ("text don't call", "WhatsApp, not Telegram")
        # a choice settled ("OK then plain email it is")
        r"|it\s+is(?=\s*[.!]*$)"
        # the way named for the user's notices ("remember: telegram for updates")
        r"|for\s+(?:all\s+|any\s+)?(?:my\s+|the\s+)?(?:order\s+|delivery\s+|shipping\s+)?"
        r"(?:updates|notifications|notifs|alerts|notices)(?=\s*[.!,;]|\s*$)"
        r"|(?:text|txt|email|e-mail|message|whatsapp|telegram|wechat|call)\s*,?\s*(?:don't|do not"
        r"|not|no)\s+(?:call|ring|phone|text|email|e-mail|message|whatsapp|telegram|wechat)"
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
    + r")\s*(?:用|发|打|通过|by|via|on|in|over)?\s*$"
)
_NOT_BEFORE = re.compile(r"(?:不是|(?<![a-z])not)\s*(?:用|发|打|通过|by|via)?\s*$")
_ALT_AFTER = re.compile(
    r"^\s*(?:不如|没有|还不如)"
    # conceded, and another chosen after it ("用英文也行，不过还是中文吧")
    r"|^\s*(?:[^，,。]{0,4})?也(?:行|可以|ok|没问题)(?:[，,]?\s*(?:不过|但是?|可是)?\s*还是|\s*$)"
)
#: A determiner before a channel word makes it a thing ("the phone is broken"), unless a way of
#: being reached leads to it ("notifications via the app", "message me on your app").
_DETERMINER_BEFORE = re.compile(
    r"(?<!\bvia )(?<!\bthrough )(?<!\busing )(?<!\bin )(?<!\bon )(?<!\buse )"
    + _w(r"the|this|that|your|their|his|her|its")
    # (a time between: "your 9am calls")
    + r"(?:\s+\d{1,2}(?::\d\d)?\s*(?:am|pm)|\s+(?:morning|evening|night|early|late|daily"
    r"|weekly))?\s+$"
)
# A call denied by its verb alone ("别再给我打了"); 打扰, 打开, 打折, ... are not calls.
_PHONE_VERB_NEG = re.compile(
    rf"{_NEG_ZH}(?:再)?(?:给我|往我这)?打(?!扰|开|折|包|印|算|车|听|款|卡|字|分|架|游|球|针|工|理|扫|招)"
)

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
    # the people who deliver or serve: "快递员要是打电话来" is their call, not the user's wish
    r"|快递员|快递小哥|送货员|配送员|骑手|外卖员|外卖小哥|司机|师傅|小哥"
)
_REL_EN = (
    r"wife|husband|mom|mum|mother|dad|father|parents?|sons?|daughters?|kids?|children|child"
    r"|friends?|colleagues?|co-?workers?|boss|partner|girlfriend|boyfriend|brothers?|sisters?"
    r"|family|grandma|grandmother|grandpa|grandfather|assistant|roommate|flatmate|neighbou?rs?"
    r"|spouse|fianc[eé]e?|manager|secretary|aunt|uncle|cousins?|in-laws|mother-in-law"
    r"|father-in-law|gf|bf|hubby|missus|wifey|nieces?|nephews?|bestie|best friend|step(?:son"
    r"|daughter|mum|mom|dad|father|mother)"
)
_THIRD_ZH = rf"我(?:的)?(?:{_REL_ZH})|(?:{_REL_ZH_BARE})|(?<![其吉])他们?(?!人)|她们?"
_THIRD_EN = (
    rf"(?<![a-z])(?:my|our)\s+(?:{_REL_EN})(?![a-z])|(?<![a-z])(?:mom|mum|dad)(?![a-z])"
    r"|(?<![a-z])(?:the|a|your|our)\s+(?:courier|driver|delivery\s+(?:guy|man|person|driver)"
    r"|rider|postman|mailman|technician|installer)(?![a-z])"
    rf"|(?<![a-z])(?:a|an|one of my|some)\s+(?:{_REL_EN})(?![a-z])"
    r"|(?<![a-z'])(?:he|she|they|him|her|them|his|their|someone else|somebody else"
    r"|other people|others)(?![a-z'])"
)
_INCL = (
    rf"我们|咱们|我俩|全家|我(?:和|跟|与|同(?!事|学|桌|屋|寝|乡|伴|龄))|(?:和|跟|与|同)我(?!的?(?:{_REL_ZH})|说|讲|联系|沟通|交流)"
    rf"|(?<![a-z])(?:we|us|both of us|(?:and|&) (?:i|me)|(?:i|me) and)(?![a-z'])"
    r"|(?<![a-z])we(?:'re|'ve|'d|'ll)(?![a-z])"
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
#: A clause that goes on with the subject of the one before ("也…", "平时穿XXL" after "他一米八五":
#: Chinese leaves a continuing subject out).
_CONTINUES = re.compile(
    r"^(?:也|还|都|又|同样|平时|平常|一般|通常|一直|从来)|" + _w(r"also|too|as well")
)

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
    r"(?:用|以|使用|改用|换成|改成|改回|换回|切回|切换到|切换成|换到|切到|都用|只用|偏好|习惯|更喜欢|希望|想要|倾向于?"
    # the one chosen after another is weighed ("不过还是中文吧", "想想还是中文看着舒服")
    r"|(?:不过|但是?|可是|想想|想了想|算了|其实)\s*还是"
    r"|要)\s*(?:用|以|说|讲)?\s*$|(?:只会?|请|都|跟我|和我|对我|同我|直接)\s*(?:说|讲)\s*$|"
    + _w(
        r"in|use|using|only speak|prefer|preferably|to|into|switch to|change to"
        r"|comfortable\s+(?:in|with|reading|speaking)|keep\s+it|stick\s+(?:to|with)"
        # "I'm fine reading Chinese"
        r"|(?:fine|ok|okay|happy|good)\s+(?:reading|speaking|with)"
        # a second thought ("actually make that French, not Italian")
        r"|make\s+(?:that|it)"
        # what the user asked for ("I asked for Dutch replies")
        r"|(?:asked|ask|asking)\s+(?:you\s+)?for"
        # the one meant, after one said by mistake ("I said German, I meant Dutch")
        r"|i\s+meant"
    )
    + r"\s+(?:the\s+)?$"
)
_LANG_POS_AFTER = re.compile(
    r"^\s*(?:来|进行)?\s*(?:回复|回答|答复|沟通|交流|聊天?|对话|回|答|联系|写|和我|跟我|给我|同我|对我"
    r"|就行|就好|就可以|即可|吧|可以吗|好吗|谢谢)|^\s*"
    + _w(
        r"please|pls|plz|only|from now on|going forward|works"
        r"|is (?:(?:totally|perfectly|completely|absolutely|really|just|also)\s+)?(?:fine|better"
        r"|preferred|best|ok|okay)"
        r"|if possible|thanks|thank you|i'?d\s+(?:like|prefer|rather)|i\s+(?:want|prefer|need)"
        r"|is\s+what\s+i\s+(?:actually\s+|really\s+)?(?:read|understand|speak|prefer|want|use)"
        # easier for the user ("English is actually easier for me", "Spanish would be easier")
        r"|(?:is|would\s+(?:\w+\s+)?be)\s+(?:\w+\s+)?(?:easier|better)\s+for\s+me"
        r"|is\s+(?:much\s+|far\s+|a\s+lot\s+)?easier(?![a-z])"
        # the replies themselves in it ("Dutch replies please")
        r"|(?:replies|responses|answers)\s+(?:please|pls|only|from now on|going forward)"
    )
)
_LANG_NEG_BEFORE = re.compile(
    rf"(?P<neg>{_NEG_ZH})(?:再|给我|用|以|说|讲|回复|回答|和我|跟我|跟我说|对我说|我|了|的|\s)*$"
)
_LANG_NEG_AFTER = re.compile(r"^\s*(?:就|也|都|的话)*\s*(?:不要|别|不用|不行|不好|不方便)")
_LANG_CANT = _rx(
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
        r"reply|replies|replying|respond|responding|responses?|answers?|answering|write"
        r"|speak|talk|communicate|chat|text|email"
        r"|contact|message|messages|use|switch|change|prefer|preferred|please|language"
        r"|converse|correspond|correspondence|communications?|from now on|going forward|always"
        r"|keep\s+it|stick\s+(?:to|with)|(?:fine|ok|okay|happy|good)\s+(?:reading|speaking)"
        r"|works?\s+(?:better|best)\s+for\s+me|(?:easier|better)\s+for\s+me"
        r"|what\s+i\s+(?:actually\s+|really\s+)?(?:read|understand|use)"
        # "I'm way more comfortable in Spanish"
        r"|(?:more|most|much\s+more|way\s+more|far\s+more)\s+comfortable\s+(?:in|with|reading)"
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
    # a zone by its abbreviation ("I'm on IST (Mumbai)", "we're on CET")
    r"(?<![a-z])(?:i'm|im|i am|we're|we are)\s+(?:\w+\s+)?on\s+[a-z]{2,4}t(?![a-z])",
    r"(?:我|我们)(?:这边|这里)?(?:是|在|用)\s*(?:utc|gmt)\s*[+\-−]\s*\d",
    r"(?<![a-z])it'?s\s+(?:[a-z]+\s+){1,2}time\s+for\s+me(?![a-z])",
    # one zone set right against another ("my bad, it's Chicago time not New York", "sorry,
    # it's Denver time, not Phoenix": that clause alone)
    r"(?<![a-z])(?:it'?s|it\s+is|that'?s|that\s+is)\s+(?:[a-z]+\s+){1,2}time\s*(?:,?\s*(?:not|rather"
    r"\s+than|instead\s+of)(?![a-z])|[.!]*$)",
    # when to reach the user, set on a zone ("schedule deliveries and callbacks on Japan time",
    # "Mountain time please")
    r"(?<![a-z])(?:schedul[a-z]*|book[a-z]*|arrang[a-z]*|plan[a-z]*|deliver[a-z]*|call[a-z]*)\s"
    r".{0,40}?\bon\s+(?:the\s+)?(?:[a-z]+\s+){1,2}time(?![a-z])",
    r"^\s*(?:so\s+|and\s+)?(?:[a-z]+\s+){1,2}time,?\s+(?:please|pls|from now on|going forward)\s*$",
)
#: Where the user is, said with the zone that goes with it ("I'm in London (GMT)", "we're in
#: Denver (mountain time)"): the place's own zone, which knows its summer time.
_TZ_PLACE = re.compile(
    r"(?<![a-z])(?:i'm|im|i am|we're|we are)\s+(?:\w+\s+)?(?:based\s+|living\s+)?in\s+"
    r"(?P<place>[a-z][a-z .'\-]{1,30}?)\s*(?:\(|,|-|/)\s*(?:so\s+|i\.e\.\s+|aka\s+)?"
    r"(?P<zone>(?:utc|gmt)(?:\s*[+\-−]\s*\d{1,2})?|[a-z]{2,5}t|(?:[a-z]+\s+){0,2}time)\b"
)
#: A zone said by the name North Americans give it, without "time" ("I'm actually on Central").
_TZ_ON_REGION = re.compile(
    r"(?<![a-z])(?:i'm|im|i am|we're|we are)\s+(?:\w+\s+)?on\s+(?P<region>eastern|central|"
    r"mountain|pacific|atlantic|alaska|hawaii)(?!\s*(?:time|europe|asia|africa|america|coast|"
    r"region|side|[a-z]))"
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
        r"|no disturb|no[- ]call (?:hours?|times?|window)|no[- ]contact (?:hours?|times?|window)"
        # nothing at all at those hours ("please nothing between 10pm and 9am my time")
        r"|nothing (?:between|after|before|from)(?= \d)"
    ),
)
_UNAVAILABLE = _rx(
    r"不(?:太|大|是很|怎么|很)?方便|没空|没时间|在睡觉|睡觉|在休息|不在|接不了|不行",
    _w(
        r"busy|unavailable|not available|asleep|sleeping|not free|a no-?go|no-go|off[- ]limits"
        r"|out of the question|not ok(?:ay)?"
    ),
)
_NO_CONTACT_EN = re.compile(
    _w(
        r"no (?:(?:phone|push|sms|marketing|more|app) )?(?:calls?|texts?|messages?|e-?mails?"
        r"|notifications?|notifs?|alerts?|contact|pings?)"
    )
)
_CONTACT_VERB = _rx(
    r"联系|打给|打我|找我|通知|打电话|电话|短信|邮件|微信|推送|发消息|发信息|回电|接电话|有空|方便|在线"
    r"|打扰|接听",
    _w(
        r"call|calls|calling|contact|reach|text|texts|email|emails|ring|phone|message|messages"
        r"|notify|notifications?|ping|available|free|get in touch|best time|disturb|bother"
    ),
)
#: An hour said between a refusal and its verb ("不要在晚上十点后打电话给我").
_CLOCK_ZH = (
    r"(?:[零一二两三四五六七八九十\d]{1,3}(?:点|:[0-5]\d)(?:半|钟|多)?)"
    r"(?:以后|以前|之后|之前|后|前)?"
)
_CONTACT_NEG = re.compile(
    # a call not taken ("我晚上10点后不接电话")
    r"不(?:接|回)(?:电话|听|消息|短信|微信)|"
    # the hours between ("别在中午12点到下午2点找我")
    rf"{_NEG_ZH}{_GLUE_ZH}(?:(?:中午|下午|上午|傍晚|夜里)?{_CLOCK_ZH}(?:到|至|[-~～—])?{_GLUE_ZH}){{0,2}}"
    r"(?:打|发|联系|找|通知|推送|推(?:消息|通知|信息)|接|打扰|吵|call|text"
    r"|e-?mail|message|contact|ring|phone|ping|notify|send|bother|disturb)|"
    + _w(_NEG_EN)
    + r"(?:\s+\w+){0,3}?\s+(?:call|calls|calling|text|texts|texting|e-?mails?|e-?mailing|message"
    r"|messages|messaging|msgs?|notifs?|notifications?|alerts|contact|ring|phone|ping|notify|send"
    r"|bother|disturb)"
)
_HOURS_STRONG = _rx(
    r"只|请|希望|最好|以后|一律|别|不要|勿|免打扰",
    _w(r"only|please|prefer|best|always|never|don't|do not|no"),
)


# Text shape
_TRAILING = re.compile(r"[\s。！？!?；;，,.、~～…:：]+$")
_LEADING = re.compile(r"^[\s，,、:：;；-]+")
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LATIN_WORD = re.compile(r"[A-Za-z]+")
