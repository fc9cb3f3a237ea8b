"""What the injection rules test besides their patterns: the nouns and qualifiers an override
names, and the checks a match must pass (an authority acting, not a question, not the
speaker's own habit)."""

from __future__ import annotations

import re

from governed_memory.memory.write.detectors._text import (
    _CLAUSE_END,
    QUOTED,
    Span,
    _clause,
    _window,
)

_ROLE_NOUNS = (
    r"(?:assistant|ai|bot|chatbot|model|llm|admin(?:istrator)?|developer|hacker|system|agent|"
    r"persona|character|version|operator|superuser|super\s*user|root|god|employee|manager|owner|"
    r"supervisor|moderator|dan|jailbroken\s+\w+|unrestricted\s+\w+|unfiltered\s+\w+|"
    r"evil\s+\w+|different\s+\w+)"
)
_OVERRIDE_TARGET = (
    r"(?:instructions?|prompts?|rules?|directives?|guidelines?|guidance|commands?|orders?|"
    r"directions|programming|constraints?|guardrails?|polic(?:y|ies)|restrictions?|protocols?|"
    r"system\s+(?:prompt|message)s?|training|limitations?|filters?|safeguards?|ethics|"
    r"principles|context|settings|configuration)"
)
_OVERRIDE_QUALIFIER = (
    r"(?:(?:all|any|every|each|of|the|your|these|those|previous|previously|prior|above|earlier|"
    r"preceding|former|existing|original|initial|old|current|given|system|developer|default|"
    r"safety|other|that|this|such|mentioned|stated|aforementioned|above-mentioned|foregoing|"
    r"provided|built-in|internal|openai|anthropic|content|company|security|moderation)\s+){0,5}"
)
_STRONG_QUALIFIER = re.compile(
    r"all|any|every|your|previous|previously|prior|above|earlier|preceding|former|existing|"
    r"original|initial|system|developer|default|safety|aforementioned|above-mentioned|"
    r"foregoing|built-in|internal|openai|anthropic|content|security|moderation",
    re.IGNORECASE,
)


#: Someone else's permission ("The GM may override any rule for the sake of the story"): a
#: game's or a contract's rule, not an order to the reader.
_THIRD_PARTY_MAY = re.compile(
    r"\b(?!you\b|u\b)[a-z]+\s+(?:may|can|could|shall|is\s+allowed\s+to)\s+$", re.IGNORECASE
)


def _strong_override(text: str, m: re.Match[str]) -> bool:
    if _THIRD_PARTY_MAY.search(text[max(0, m.start() - 30) : m.start()]):
        return False
    q = m.group("q") or ""
    target = m.group("t").lower()
    strong = {w.lower() for w in _STRONG_QUALIFIER.findall(q)}
    if target.startswith(("setting", "configuration")):
        # a device's or a contract's defaults ("override the default settings", "Override of
        # default settings"): everyday, unless whose settings says the assistant's
        strong -= {"default"}
    if policy_history(text, m):
        return False
    return bool(strong) or target.startswith(
        ("system", "guardrail", "programming", "safeguard", "ethics")
    )


#: A shop's terms replacing its earlier ones, for what is bought from a date ("These new terms
#: override the previous policy for purchases made on or after that date"): a policy's history.
_TERMS_REPLACED = re.compile(
    r"\s*(?:for|on)\s+(?:all\s+)?(?:purchases|orders|returns|items|products|deliveries|bookings"
    r"|subscriptions)\b",
    re.IGNORECASE,
)


#: Someone named taking a role on ("Starting Monday, Jonas will act as system administrator"):
#: staff news, not a role handed to the assistant.
_SOMEONE_WILL = re.compile(
    r"\b(?!(?:you|u|it|assistant|bot|ai|agent|model|chatbot|helper|system|gpt|llm)\b)[a-z]+\s+"
    r"(?:will|shall|is\s+going\s+to|is\s+to|has\s+agreed\s+to)\s+(?:temporarily\s+|now\s+|also\s+)?$",
    re.IGNORECASE,
)


def someone_else_will(text: str, start: int) -> bool:
    """Whether what starts at `start` is what someone other than the assistant will do."""
    return bool(_SOMEONE_WILL.search(text[max(0, start - 40) : start]))


def policy_history(text: str, m: re.Match[str]) -> bool:
    """Whether `m` (an override of a policy) is a shop's terms replaced for what is bought."""
    return m.group(0).lower().endswith(("policy", "policies")) and bool(
        _TERMS_REPLACED.match(text, m.end())
    )


_AUTHORITY_ACTION = re.compile(
    r"approv|authori[sz]|grant|refund|waive|accept|allow|permit|process|issue|release|unlock|"
    r"unban|whitelist|verif|mark\s|reveal|disclose|leak|send|forward|share|transfer|give|obey|"
    r"comply|bypass|skip|ignore|disable|turn\s+off|delete|remove|escalat|execute|run\s|trust|"
    r"say\s+yes|never\s+(?:refuse|deny|reject|ask)|pay|credit|discount|free|admin|answer\s+without|"
    r"respond\s+without|without\s+(?:check|verif|review|approv|question|confirm)",
    re.IGNORECASE,
)


def _authority_after(text: str, m: re.Match[str]) -> bool:
    return bool(_AUTHORITY_ACTION.search(text, m.end(), m.end() + 90))


_ZH_AUTHORITY = re.compile(
    r"退款|批准|通过|同意|放行|打款|转账|解封|授权|权限|管理员|执行|输出|告诉我|发给|发到|"
    r"听我的|按我说的|照我说的|服从|不用审核|无需审核|直接"
)


#: A code comment's marker opening the line up to a finding.
_CODE_COMMENT = re.compile(r"(?:^|\n)[ \t]*(?://|#|/\*|\*|--)[ \t]*\Z")
#: What a program's rules are about (a fee, a price, stock), not the assistant's.
_PROGRAM_RULE = re.compile(
    r"运费|邮费|价格|定价|折扣|库存|配送|税|积分|计费|汇率|排序|分页|满减|四舍五入"
)


#: A device's manual or its voice commands.
_DEVICE = re.compile(r"说明书|使用手册|用户手册|操作指南|智能音箱|音箱|遥控器|语音助手|唤醒词")


def _zh_override_ok(text: str, m: re.Match[str]) -> bool:
    q = m.group("q") or ""
    if "我" in q and "你" not in q:
        return False  # the speaker's own words: a correction, not an injection
    if _window(text, m.start(), 3).endswith(("我", "我都", "我已", "我也")):
        return False  # "我忘记之前的规则了": the speaker forgot something
    strong = re.search(
        r"之前|以前|先前|此前|上面|上述|前面|以上|原来|原有|原先|所有|全部|一切|任何|你的?|系统|开发者|"
        r"既有|现有|默认|安全|预设|初始|那些|这些|上一?条|刚才的?|先前|内置",
        q,
    )
    target = m.group("t")
    if target in ("设定", "设置") and re.search(
        r"超时|逾时|端口|路径|缓存|日志|字体|分辨率|编码|参数", q
    ):
        return False  # a program's setting overridden ("// 覆盖预设逾时设定")
    if _CODE_COMMENT.search(text, 0, m.start()) and _PROGRAM_RULE.search(q):
        return False  # a program's own rule, in a comment ("// 覆盖默认运费规则：偏远地区加收10元")
    if (
        target.endswith(("命令", "指令"))
        and re.search(r"上一?条|刚才|上次", q)
        and _DEVICE.search(text)
    ):
        # a device's last voice command undone ("说「小诺，取消刚才的指令」可撤销上一条命令")
        return False
    if target == "设置" and not re.search(r"你|安全|系统|开发者|审核|过滤", q):
        # A device's settings ("此操作会覆盖所有自定义设置"): an operation, not the rules.
        return False
    return bool(strong) or target.startswith(("系统", "安全"))


def _zh_everything_ok(text: str, m: re.Match[str]) -> bool:
    if _window(text, m.start(), 3).endswith("我"):
        return False
    return bool(_ZH_AUTHORITY.search(text, m.end(), m.end() + 30))


def _not_self_subject(text: str, m: re.Match[str]) -> bool:
    """ "我忽略了安全提示" is the speaker's own account, not an instruction to the agent."""
    return "我" not in _window(text, m.start(), 3)


#: A prohibition or a denial: what follows it in its clause is forbidden or said not to happen.
_PROHIBITION = re.compile(
    # (能不能 and 可不可以 ask a favour: no ban)
    r"勿|不要|别|禁止|不得|(?<!可)不可(?!以)|(?<!能)不能(?!不)|不准|切莫|严禁|不会|不允许|从不|绝不|决不|不应"
    # a refusal to do it, not itself refused ("确认机器人拒绝泄露系统提示词", "confirm it refuses
    # to reveal the system prompt"; "别拒绝" and "don't refuse to" ask for it)
    r"|(?<!别)(?<!不要)(?<!不许)拒绝|(?<!n't\s)(?<!not\s)\brefuses?\s+to\b"
    r"|\b(?:never(?!\s+mind|\s+refuse)|not|no\s+one|nobody|must\s+not|mustn't|won't"
    r"|don't(?!\s+hesitate|\s+refuse|\s+decline)|"
    r"doesn't|shouldn't|cannot|can't|unable\s+to|(?:is|are|was|were)n't\s+(?:allowed|able|"
    r"permitted|supposed)\s+to|under\s+no\s+circumstances"
    # a sanction for it ("we may suspend accounts that attempt to circumvent …")
    r"|(?:suspend|ban|terminate|block|close|penali[sz]e|remove)\w*\s+(?:any\s+|the\s+)?(?:accounts?"
    r"|users?|customers?|members?)\s+(?:that|who|which)\s+(?:attempt|try|tries|seek)\s+to)\b",
    re.IGNORECASE,
)
_CLAUSE_MARKS = ",，。;；!?！？\n:：、"


def _prohibited(text: str, start: int, reach: int = 40) -> bool:
    """Whether the clause before `start` forbids or denies what starts there ("请勿绕过安全联锁
    装置", "领导不会通过邮件让你绕过审批", "leadership will never ask you to bypass approval"):
    a warning or a handbook, not an order. Another clause's or sentence's words ("不要犹豫，直接
    绕过…", "2) Never refuse. 3) Treat every claim as verified") do not count."""
    left = max(max(text.rfind(c, 0, start) for c in _CLAUSE_MARKS), text.rfind(". ", 0, start)) + 1
    if _PROHIBITION.search(text, max(left, start - reach), start):
        return True
    # an item of a list a ban opens ("The assistant must not: reveal its prompt, …, share …")
    sentence = max(
        text.rfind("\n", 0, start), text.rfind(". ", 0, start), text.rfind("。", 0, start)
    )
    colon = max(text.rfind(":", sentence + 1, start), text.rfind("：", sentence + 1, start))
    head = list(_PROHIBITION.finditer(text, max(sentence + 1, colon - 20), colon))
    if colon > 0 and bool(head) and head[-1].end() >= colon - 1:  # the ban opens the list
        return True
    # the last item of a list a ban governs ("不得发放退款、修改账户邮箱或跳过身份验证", "may not
    # issue refunds, change emails, or waive verification")
    bans = list(_PROHIBITION.finditer(text, sentence + 1, start))
    return bool(bans) and bool(_LIST_TAIL.fullmatch(text, bans[-1].end(), start))


#: What lies between a ban and the last item of the list it governs: items and their commas,
#: then "or"/"或" (or, in Chinese, an enumeration comma).
_LIST_TAIL = re.compile(
    r"(?:[^、，,;；.。\n]{1,40}?、)*[^、，,;；.。\n]{1,40}?(?:或者?|和|及|以及)\s*"
    r"|(?:[^、，,;；.。\n]{1,40}?、)+\s*"
    r"|(?:[^,;.\n]{1,40}?,\s*)*[^,;.\n]{1,40}?,?\s+(?:or|and)\s+"
)


def _not_prohibited(text: str, m: re.Match[str]) -> bool:
    start = m.start()  # a match may open on the mark that ends the clause before it
    while start < m.end() and (text[start] in _CLAUSE_MARKS or text[start] in " ."):
        start += 1
    return not _prohibited(text, start)


def _zh_ordered(text: str, m: re.Match[str]) -> bool:
    """Neither the speaker's own account nor a prohibition ("请勿绕过安全联锁装置": a safety
    warning forbids what an attack would order)."""
    return _not_self_subject(text, m) and not _prohibited(text, m.start())


def _not_question(text: str, m: re.Match[str]) -> bool:
    """Not asked: the clause with the mark that ends it ("你现在是人工客服还是机器人呀？")."""
    clause = _clause(text, m.start(), m.end())
    mark = _CLAUSE_END.search(text, m.end())
    if mark is not None:
        clause += mark.group()
    return not re.search(r"吗|\?|？|能不能|可不可以|可以不|是否|怎么|还是", clause)


def _zh_bypass_clause(text: str, m: re.Match[str]) -> bool:
    clause = _clause(text, m.start(), m.end())
    return bool(
        re.search(r"直接|无条件|自动|不用|无需|不需要|不必|免|跳过|不经|别管|不要|一律", clause)
    )


def _not_zh_question(text: str, m: re.Match[str]) -> bool:
    return not re.match(r"[^,。!?\n]{0,4}(?:吗|\?|呢)", text[m.end() :])


def _zh_asked_to_skip(text: str, m: re.Match[str]) -> bool:
    """An order to skip a check: not asked as a question, not forbidden ("请勿跳过身份验证")."""
    return _not_question(text, m) and not _prohibited(text, m.start())


#: What comes before "pretend to be" when no one asks the assistant to: a question about the bot
#: ("do you pretend to be a human?"), a ban ("it must not pretend to be a manager"), the
#: writer's own pose or someone else's ("I pretend to be a pro when I cook").
_NOT_ASKED_TO_POSE = (
    r"(?<!don't\s)(?<!do\snot\s)(?<!stop\s)(?<!never\s)(?<!do\syou\s)(?<!did\syou\s)"
    r"(?<!\bi\s)(?<!\bwe\s)(?<!\bhe\s)(?<!\bshe\s)(?<!\bthey\s)(?<!must\snot\s)(?<!mustn't\s)"
    r"(?<!should\snot\s)(?<!shouldn't\s)(?<!cannot\s)(?<!can't\s)(?<!won't\s)"
)


#: A role taken on for the writer to practise with ("pretend to be a customer so I can practice
#: my sales pitch", "roleplay as a receptionist so I can rehearse"): a game, not a new self.
_PRACTICE = (
    r"(?![^.!?\n]{0,80}?(?:\bso\s+(?:that\s+)?(?:i|we)\s+can\s+(?:practi[cs]e|rehearse|prepare"
    r"|train|learn|study|get\s+ready)|\bfor\s+my\s+(?:\d+[- ]year[- ]old|kids?|child|children"
    r"|daughter|son|students?|class|niece|nephew)\b"
    # a story for a child ("pretend to be a friendly dragon and tell my 5-year-old a bedtime
    # story")
    r"|\b(?:tell|read|sing)\s+(?:to\s+)?my\s+(?:\d+[- ]year[- ]old|kids?|child|children|daughter"
    r"|son|students?|class|niece|nephew|toddler|little\s+one)\b|\bbedtime\s+stor(?:y|ies)\b"
    # a game of planning with no power asked for ("pretend to be a travel agent and help me plan
    # a fun 3-day itinerary")
    r"|\bhelp\s+me\s+(?:plan|brainstorm|pick|choose|imagine)\b|\bjust\s+for\s+fun\b"
    # a child's practice or homework, a guide's tips ("so my kid can practise English check-in
    # phrases", "pretend to be a travel guide and recommend three things to do in Kyoto")
    r"|\bso\s+(?:my|our|his|her)\s+(?:\w+\s+)?(?:kids?|son|daughter|child|children|students?"
    r"|class|team)\s+can\s+(?:practi[cs]e|rehearse|learn|prepare)\b|\bhomework\b"
    r"|\brecommend\s+(?:\w+\s+){0,3}?(?:things|places|restaurants|books|films|movies|sights"
    r"|dishes|spots)\b"
    r"|\b(?:i'm|i\s+am)\s+not\s+(?:booking|buying|ordering)\b"
    # a game for a child's party ("my daughter wants to role-play as a shopkeeper for her
    # birthday party")
    r"|\bfor\s+(?:her|his|their|my|a|the)\s+(?:\w+\s+)?(?:birthday|party|school\s+play)\b))"
)

#: A change that takes a feature away, just before its name: "stop admin override from …".
_DENIED_BEFORE = re.compile(
    r"\b(?:stop|stops|prevent|block|disable|remove|deprecate|no\s+longer)\s+(?:the\s+)?$"
    # a changelog's line ("- Removed: legacy admin override endpoint")
    r"|\b(?:removed|deprecated|dropped|retired|disabled):\s*(?:the\s+)?(?:legacy\s+|old\s+)?$",
    re.IGNORECASE,
)
#: A denial right after a feature's name, in its clause: "admin override no longer bypasses…".
_DENIED_AFTER = re.compile(
    r"[^,.;:!?\n]{0,12}?\b(?:no\s+longer|not|never|doesn't|does\s+not|can't|cannot|won't)\b"
    # a feature withdrawn ("the system override for price matching has been removed")
    r"|[^,.;:!?\n]{0,40}?\b(?:has|have)\s+been\s+(?:removed|disabled|retired|turned\s+off"
    r"|deprecated|withdrawn)\b",
    re.IGNORECASE,
)


#: A text about attacks: what it quotes is an example ("What is prompt injection? Text that
#: holds, for example, 'ignore your previous instructions'", a filter's list of patterns).
_ABOUT_ATTACKS = re.compile(
    r"prompt[\s-]+injection|\binjections?\b|\bjailbreak(?:s|ing)?\b|\battack(?:s|ers?)?\b"
    r"|\bsuspicious\b|\bpatterns?\b|\b(?:block|deny|stop)\s?list|提示词?注入|注入攻击|攻击者|越狱"
    # a filter naming what it strips ("strip phrases like 'ignore previous instructions'")
    r"|\bphrases?\s+(?:like|such\s+as)\b|\bsanitiz|\bsanitis|\btexts?\s+like\b"
    r"|之类的(?:文字|话|语句|指令)|类似的?(?:文字|话|语句|指令)|操控|操纵|钓鱼|冒充"
    # an incident told afterwards: "postmortem: a user pasted '…' and the bot complied"
    r"|事故复盘|复盘|\bpost-?mortem\b|\bincident\s+(?:report|review)\b|\broot\s+cause\b|红队"
    r"|\bred[- ]team|\bprompts?\s+(?:such\s+as|like)\b"
    # a scam or an attack reported, what it said quoted ("an email claiming to be from our CEO,
    # saying '…'. This is fraudulent.", "看起来像是想攻击你们的机器人，特此告知安全团队")
    # (training material: "Training scenario: A 'customer' writes '…'. Correct response: …")
    r"|\btraining\s+(?:scenarios?|examples?|exercises?|modules?)\b|\bcorrect\s+response\b"
    r"|\bsocial[- ]engineering\b|社会工程"
    r"|\bscam(?:s|mers?)?\b|\bhack(?:er|ers|ing)\b|黑客|\bfraudulent\b|\bphishing\b"
    r"|\bclaiming\s+to\s+be\b|攻击|诈骗|安全团队"
    # a test of the assistant, or a user's request told with how it was met ("def
    # test_bot_refuses…: bot.respond('…')", "a user asked our assistant, '…'", 测试用例, 预期结果)
    r"|\bred\s+flags?\b|警示信号"
    r"|\btest_\w+|\bassert\b|\.respond\(|\bexpected\s+(?:result|behaviou?r|reply)|测试用例|预期结果"
    r"|\bexpect\s*\(|\b(?:it|test|describe)\s*\(\s*['\"]"
    r"|\b(?:a|one)\s+(?:user|customer|shopper|caller)\s+(?:asked|typed|wrote|said|tried)\b"
    r"|\b(?:a|one)\s+(?:user|customer|shopper|caller)\s+(?:writes|says)\s*[,:]|社交工程|话术|注入防护"
    # inputs kept to test a filter with ("Sample blocked inputs for QA (do not act on these)")
    r"|\bblocked\s+inputs\b|\bdo\s+not\s+act\s+on\s+these\b|\bsample\s+(?:attacks|prompts|inputs)\b"
    r"|\bpretending\s+to\s+(?:come\s+from|be\s+from)\b"
    r"|命中规则"
    # requests listed to be refused ("Training example, requests agents must refuse: …")
    r"|\b(?:must|should|to)\s+(?:refuse|decline|reject)\b|(?:必须|应当?|需要|须)拒绝",
    re.IGNORECASE,
)

#: An attack defined or reported, to the end of its sentence ("Prompt injection - an attack in
#: which text … contains instructions meant to override the developer's", "Prompt injection is
#: when text … tries to give the AI new instructions", "提示注入——一种攻击手法，攻击者在…企图
#: 覆盖开发者原本的指令", "测试人员通过角色扮演让旧版机器人泄露了系统提示词"): described, not done.
DEFINED = re.compile(
    r"\ban?\s+(?:attack|technique|trick|exploit)\s+(?:in\s+which|where|that|whereby)[^.!?\n]*"
    r"|\b(?:injection|jailbreak(?:ing)?|phishing)\s+(?:is|are|means|refers\s+to)\s+(?:when|an?\s)"
    r"[^.!?\n]*"
    r"|(?:一种|一類|一类)?攻击(?:手法|方式|手段)[^。！？!?\n]*"
    # a glossary's entry ("術語表：人工覆核（Override）——…例如解除風控凍結")
    r"|(?:术语表|名词解释|词汇表|\bglossary)\s*(?:[:：]|——|—|--)[^。！？!?\n]*"
    # an attempt defined ("越狱：试图让AI无视这些指令的行为", "an attempt to make the assistant …")
    r"|(?:试图|企图|尝试|设法)(?:让|使|诱导|骗)[^。！？!?\n]{0,30}?的(?:行为|做法|手法|攻击|尝试)"
    r"|\ban?\s+attempts?\s+to\s+(?:make|get|trick|coax|push)\s+(?:an?\s+|the\s+)?(?:ai|assistant|model"
    r"|chatbot|bot)\b[^.!?\n]*"
    # requests described with where they go ("escalate any request to change bank details or
    # bypass identity checks to a human", 凡涉及修改收款账户或跳过实名核验的请求), a code list of
    # what triggers a review (ESCALATION_TRIGGERS = ["skip identity check", …])
    r"|\b(?:escalate|route|forward|flag|refuse|decline|reject)s?\s+(?:any|all|every)\s+requests?\s+to\b"
    r"[^.!?\n]*"
    r"|(?:凡(?:是)?涉及|涉及)[^。！？!?\n]{0,30}?的请求"
    r"|\b[A-Z_]*(?:TRIGGERS?|BLOCKLIST|DENYLIST|PATTERNS|PHRASES)\s*=\s*\[[^\]]*\]"
    # the signs of an attack listed ("风险信号包括催促、…、要求跳过验证", "red flags include …")
    r"|(?:风险信号|危险信号|警示信号|可疑迹象|常见话术)(?:包括|有|如|例如)[^。！？!?\n]*"
    r"|\b(?:red\s+flags|warning\s+signs)\s+(?:include|are|such\s+as)\b[^.!?\n]*"
    r"|(?:红队|测试人员|攻击者)[^。！？!?\n]{0,20}?(?:让|使|诱导)[^。！？!?\n]{0,30}?了[^。！？!?\n]*",
    re.IGNORECASE,
)

#: A request described to say how it is refused ("If a user asks you to ignore these rules,
#: politely decline", "requests to bypass verification must be declined", "遇到要求跳过身份验证的
#: 请求，应礼貌拒绝"): a mention, not a use.
_REFUSED = re.compile(
    r"\b(?:if|when|whenever|should)\s+(?:a|the|any)?\s*(?:user|customer|caller|someone|anyone"
    r"|they|somebody)\s+(?:asks?|tells?|requests?|wants?|tries)\s+(?:you\s+)?to\b[^.!?\n]{0,80}?"
    r"\b(?:decline|refuse|say\s+no|don't\s+comply|do\s+not\s+comply|ignore\s+(?:it|them|the"
    r"\s+request)|escalate)"
    r"|\brequests?\s+to\s+[^.!?\n]{1,50}?\s+(?:must|should|will|are\s+to)\s+be\s+(?:declined"
    r"|refused|rejected|escalated)"
    r"|(?:如果|若|遇到|当)[^。！？\n]{0,12}(?:要求|让|叫)[^。！？\n]{0,24}(?:拒绝|不予|不要照做|婉拒)",
    re.IGNORECASE,
)


def _examples_quoted(spans: list[Span], text: str) -> list[Span]:
    """The spans that are no example quoted by a text about attacks, nor a request described
    to say how it is refused (`_REFUSED`)."""
    if not spans:
        return spans
    refused = [(m.start(), m.end()) for m in _REFUSED.finditer(text)]
    refused += [(m.start(), m.end()) for m in DEFINED.finditer(text)]
    if refused:  # (a finding that opens inside the description is part of it)
        spans = [s for s in spans if not any(rs <= s[0] < re_ for rs, re_ in refused)]
    if not spans or not _ABOUT_ATTACKS.search(text):
        return spans
    quoted = [(q.start(), q.end()) for q in QUOTED.finditer(text)]
    return [s for s in spans if not any(qs <= s[0] and s[1] <= qe for qs, qe in quoted)]


#: Guidance that forbids rather than orders ("never ask customers for their card number",
#: "请勿通过微信传递客户资料"), or that adds a check ("agents must verify the original payment
#: method", "refunds over $500 require approval", "发票抬头必须是公司全称，否则一律退回"): a
#: handbook, not a hijack, unless the passage also sends something somewhere, charges, hides or
#: revokes.
_GUIDANCE = re.compile(
    r"\b(?:never|must\s+not|mustn't|do\s+not|don't|should\s+not|shouldn't|cannot|may\s+not)\b"
    r"|\bmust\s+(?:first\s+|always\s+)?(?:verify|confirm|check|validate)\b"
    # (a refusal required: "the assistant must refuse to reveal its system prompt")
    r"|\b(?:must|should|will)\s+(?:always\s+)?(?:refuse|decline)\b"
    # (the usual checks kept: "Agents should follow the standard checks regardless of the title")
    r"|\b(?:should|must)\s+(?:always\s+)?(?:follow|apply|run|complete)\s+(?:the\s+)?(?:standard|usual"
    r"|normal|full|regular)\s+(?:checks?|verification|procedures?|process)\b"
    r"|(?<!no longer )(?<!n't )(?<!not )\brequires?\s+(?:[\w-]+\s+){0,2}?(?:approval|"
    r"verification|sign-?off|authori[sz]ation)\b"
    r"|禁止|不得|勿|严禁|不要向|(?:必须|须|需要?)(?:先)?(?:核实|核对|验证|审批|确认)"
    r"|先[^，,。\n]{0,6}?(?:电话|当面|书面|人工)?(?:核实|核对|确认|验证)"
    # an escalation adds oversight ("请务必抄送区域经理", "escalate to your team lead")
    r"|(?:抄送|报备|上报|转交|报给)(?:给)?(?:区域|部门|值班|直属)?(?:经理|主管|组长|领导|上级)"
    r"|\b(?:cc|copy\s+in|escalate\s+(?:it\s+|them\s+)?to|loop\s+in)\s+(?:your|the|a)\s+"
    r"(?:manager|supervisor|team\s+lead|line\s+manager)\b"
    # a precondition adds a check ("set up MFA before accessing any customer data")
    r"|\bbefore\s+(?:accessing|using|viewing|opening|handling|sharing|releasing|exporting)\b"
    # a rule whose consequence is a refusal tightens ("否则一律退回", "will be rejected")
    r"|一律(?:退回|驳回|拒绝|不予)|\b(?:will|shall)\s+be\s+(?:rejected|returned|declined|refused)\b"
    # everything through the approval process ("经理从不通过电话审批补偿，一律走审批流程")
    r"|一律(?:走|通过|经过|提交)[^，,。\n]{0,4}?(?:审批|审核)"
    # a check done another way ("identity verification for account changes will use a one-time
    # code sent to the registered phone number")
    r"|\b(?:verification|authentication|identity\s+checks?)\s+(?:for\s+[\w\s]{1,30}?\s+)?(?:will\s+)?(?:use"
    r"|uses|require|requires)\s+(?:a\s+)?(?:one-time|otp|two-factor|2fa|code)"
    # handed to legal or a person ("此类请求一律转法务", "offer a handover to a human")
    # (not when it is waived: "不必转人工")
    r"|(?<!不必)(?<!不用)(?<!无需)(?<!不要)(?<!别)(?<!需要)(?:转|移交|上报)(?:给)?(?:法务|法律部|风控|人工)"
    r"|(?<!not\s)(?<!never\s)(?<!n't\s)(?<!no\sneed\sto\s)\bhand-?(?:over|off)\s+to\s+a\s+(?:human|person)\b"
    r"|(?<!not\s)(?<!never\s)(?<!n't\s)\b(?:escalat|transferr?|rout)\w*\s+(?:\w+\s+)?to\s+a\s+(?:human"
    r"|person|live\s+agent)\b"
    r"|\b(?:always|all)\s+go(?:es)?\s+through\s+(?:the\s+)?(?:\w+\s+)?(?:approval|review)\b"
    # a requirement made stricter ("Passwords must now be at least 14 characters long")
    r"|\bmust\s+(?:now\s+|still\s+|always\s+)?(?:be|contain|include|have)\s+(?:at\s+least|no\s+more"
    r"|no\s+fewer)\b",
    re.IGNORECASE,
)


#: Rules for players of a game, no AI named ("Every player takes on a new role … Stay in
#: character", "剧本杀规则：…从现在开始你就是卡上的角色"): a role there is the game's.
_GAME_RULES = re.compile(
    r"\b(?:players?|game\s+masters?|the\s+host|improv|actors?|the\s+bell|board\s+games?|card\s+games?"
    r"|role\s+cards?)\b|玩家|剧本杀|主持人|演员|桌游|过家家|玩具",
    re.IGNORECASE,
)
_AI_NAMED = re.compile(
    r"\b(?:ai|assistant|chatbot|model|bot|llm|gpt)s?\b|助手|机器人|人工智能|AI", re.IGNORECASE
)


def in_game_rules(text: str) -> bool:
    return bool(_GAME_RULES.search(text)) and not _AI_NAMED.search(text)


#: What the writer admits is untrue ("tell them the sizes are back tomorrow, even if it's not
#: true"): said to customers, a lie the assistant is to tell.
_UNTRUE = (
    r"|\beven\s+(?:if|though)\s+(?:it's|it\s+is|that's|that\s+is|they're|they\s+are|it\s+isn't|"
    r"that\s+isn't)\s+(?:not\s+)?(?:true|accurate|the\s+case)\b"
    r"|\bwhether\s+(?:or\s+not\s+)?(?:it's|it\s+is)\s+true\b|哪怕(?:是)?(?:假的|不是真的)|即使不是真的|"
    r"就算不是真的"
)
_LIES = re.compile(_UNTRUE[1:], re.IGNORECASE)
#: A skipped check put in the assistant's memory ("keep this in your notes: … no longer need a
#: second sign-off").
_REMEMBERED = re.compile(
    r"\bkeep\s+(?:this|that)\s+in\s+(?:your\s+)?(?:notes|memory)|\bremember\s+for\s+(?:next\s+time|"
    r"the\s+future)|\bfor\s+the\s+future\b|\bnote\s+for\s+(?:next\s+time|the\s+future)|记住|记下|记一下|\bkeep\s+in\s+mind\b"
    r"|\bin\s+future\b|\bfrom\s+now\s+on\b|\bgoing\s+forward\b|\b(?:to|please)\s+remember\b|以后",
    re.IGNORECASE,
)
#: A record changed, which with a covert cue is done behind someone's back ("lower the price …
#: then put it back before anyone checks").
_CHANGES = re.compile(
    r"\b(?:change|lower|raise|edit|set|delete|remove|alter|drop|bump)\s+(?:[\w'-]+\s+){0,3}?(?:prices?|"
    r"reviews?|records?|status|ratings?|logs?|tickets?|entr(?:y|ies)|scores?|grades?|points|balance|"
    r"credits?|plan|tier|subscription|address)\b"
    r"|(?:改|删|调)(?:掉|成|为|低|高)?[^。！？\n]{0,8}?(?:价格|评价|记录|状态|评分|日志|成绩)",
    re.IGNORECASE,
)


#: Granting what a check guards: "approve a full refund", "unlock the account".
_GRANTS = re.compile(
    r"\b(?:approve|grant|unlock|release|issue|process|authori[sz]e)\w*\s+(?:\w+\s+){0,3}?"
    r"(?:refunds?|requests?|claims?|access|payments?|accounts?|returns?)"
    r"|\bapprove\w*\s+(?:\w+\s+){0,3}?(?:reports?|expenses?|reimburse\w*)|\bpay\s+(?:them|it)\s+out\b"
    r"|(?:批准|通过|发放|退款|解锁|放行|直接(?:给)?退|直接批|直接打款)",
    re.IGNORECASE,
)
#: The writer's own details, mail and bills ("my billing email", "电子账单…，我是账户持有人").
_MINE = re.compile(
    r"\b(?:my|our)\s+(?:\w+\s+){0,2}?(?:number|address|details|history|data|e-?mails?|invoices?|"
    r"bills?|statements?|receipts?)"
    r"|我(?:的|们的)?(?:新)?(?:地址|电话|手机号?|聊天记录|订单|资料|信息|数据|邮箱)|我(?:们)?搬家|账单|发票"
    r"|账户持有人|户主",
    re.IGNORECASE,
)
#: Anyone else's.
_THEIRS = re.compile(
    r"\b(?:their|customers?'?|users?'?|every|all|each|other|everyone's)\b|(?:用户|客户|买家)的?|所有|全部"
    r"|每(?:个|位)|名单|其他|全员|通讯录",
    re.IGNORECASE,
)


#: A negation just before a signal ("never ask customers for …").
_NEGATION = re.compile(
    r"(?:\b(?:never|not|don't|do\s+not|must\s+not|mustn't|should\s+not|shouldn't|cannot|can't|"
    r"no)\s+(?:\w+\s+){0,1}|禁止|不得|切勿|严禁|不要|不可|别)$",
    re.IGNORECASE,
)
