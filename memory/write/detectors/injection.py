"""Prompt injection: text that tries to instruct the agent or change its rules."""

from __future__ import annotations

import re
from collections.abc import Iterator

from memory.write.detectors._text import (
    _B,
    _E,
    _FLAGS,
    EMAIL,
    Detection,
    _apply,
    _clause,
    _fold,
    _Folded,
    _is_tag,
    _merge_same_category,
    _Rule,
    _rules,
    _to_detections,
    _w,
    _window,
)
from memory.write.detectors.obfuscation import View, deconfuse, revealed, views
from memory.write.detectors.signals import find_hijacks

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


def _strong_override(text: str, m: re.Match[str]) -> bool:
    q = m.group("q") or ""
    target = m.group("t").lower()
    return bool(_STRONG_QUALIFIER.search(q)) or target.startswith(
        ("system", "guardrail", "programming", "safeguard", "ethics")
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
    return bool(strong) or target.startswith(("系统", "安全"))


def _zh_everything_ok(text: str, m: re.Match[str]) -> bool:
    if _window(text, m.start(), 3).endswith("我"):
        return False
    return bool(_ZH_AUTHORITY.search(text, m.end(), m.end() + 30))


def _not_self_subject(text: str, m: re.Match[str]) -> bool:
    """ "我忽略了安全提示" is the speaker's own account, not an instruction to the agent."""
    return "我" not in _window(text, m.start(), 3)


def _not_question(text: str, m: re.Match[str]) -> bool:
    clause = _clause(text, m.start(), m.end())
    return not re.search(r"吗|\?|能不能|可不可以|可以不|是否|怎么", clause)


def _zh_bypass_clause(text: str, m: re.Match[str]) -> bool:
    clause = _clause(text, m.start(), m.end())
    return bool(
        re.search(r"直接|无条件|自动|不用|无需|不需要|不必|免|跳过|不经|别管|不要|一律", clause)
    )


def _not_zh_question(text: str, m: re.Match[str]) -> bool:
    return not re.match(r"[^,。!?\n]{0,4}(?:吗|\?|呢)", text[m.end() :])


_INJECTION_RULES: tuple[_Rule, ...] = (
    # --- instruction_override ---------------------------------------------------------------
    _Rule(
        "instruction_override",
        re.compile(
            rf"{_B}(?:ignore|disregard|forget|override|overrule|bypass|discard|abandon|neglect|"
            r"set\s+aside|throw\s+out|pay\s+no\s+attention\s+to|do\s+not\s+(?:follow|obey)|"
            r"don'?t\s+(?:follow|obey)|stop\s+following|no\s+longer\s+follow)\s+"
            rf"(?P<q>{_OVERRIDE_QUALIFIER})(?P<t>{_OVERRIDE_TARGET}){_E}",
            _FLAGS,
        ),
        _strong_override,
    ),
    *_rules(
        "instruction_override",
        _w(
            r"(?:ignore|disregard|forget)\s+(?:all\s+(?:of\s+)?|everything\s+)?(?:the\s+)?"
            r"(?:above|foregoing)(?:\s+(?:text|content|messages?|conversation|context))?"
        ),
        _w(
            r"(?:ignore|disregard|forget)\s+(?:all|everything)\s+(?:of\s+)?(?:the\s+)?(?:previous|"
            r"prior|preceding|earlier|before)(?:\s+(?:text|content|messages|conversation|context))?"
        ),
        _w(
            r"(?:ignore|disregard|forget)\s+(?:everything|all|anything)\s+(?:you\s+(?:were|have\s+"
            r"been|'ve\s+been)\s+(?:told|taught|instructed|given)|(?:that\s+)?(?:was\s+)?"
            r"(?:said|written|stated)\s+(?:above|before|earlier)|you\s+know)"
        ),
        _w(
            r"ignore\s+what\s+(?:you\s+(?:were|have\s+been|'ve\s+been)\s+told|your\s+(?:rules|instructions)\s+say)"
        ),
        _w(
            r"(?:new|updated|revised|real|actual|true|secret|hidden|additional|override)\s+"
            r"(?:system\s+)?(?:instructions?|prompt|directives?|orders)\s*(?::|follow|are|is)"
        ),
        _w(
            r"(?:here\s+are|these\s+are|follow)\s+your\s+new\s+(?:instructions|rules|orders|directives)"
        ),
        _w(
            r"your\s+new\s+(?:task|instructions?|rules?|directives?|objective|goal|mission)\s+(?:is|are)"
        ),
        _w(
            r"you\s+(?:must|will|shall|should|are\s+to)\s+(?:now\s+)?(?:only\s+)?(?:obey|follow|"
            r"listen\s+to)\s+(?:only\s+)?(?:me|my\s+(?:instructions|commands|orders)|these\s+"
            r"(?:instructions|rules)|the\s+following)"
        ),
        _w(
            r"(?:instead|rather),?\s+(?:follow|obey)\s+(?:these|my|the\s+following)\s+(?:instructions|rules|orders)"
        ),
    ),
    _Rule(
        "instruction_override",
        re.compile(
            _w(
                r"(?:from\s+now\s+on|henceforth|starting\s+now|going\s+forward|from\s+this\s+point"
                r"(?:\s+on)?|for\s+the\s+rest\s+of\s+(?:this|the)\s+conversation|in\s+all\s+future"
                r"\s+(?:conversations|interactions|replies)),?\s+(?:you|the\s+assistant|the\s+ai|"
                r"the\s+agent|the\s+bot)\s+(?:must|will|shall|should|are\s+to|have\s+to|need\s+to|"
                r"can|may|always|never|are\s+(?:allowed|permitted|required|authorized))"
            ),
            _FLAGS,
        ),
        _authority_after,
    ),
    _Rule(
        "instruction_override",
        re.compile(
            r"(?P<v>忽略|忽视|无视|不要理会|不要理睬|别理会|不用理会|别管|不要管|不用管|抛开|丢弃|"
            r"放弃|推翻|覆盖|废除|撤销|清除|清空|忘掉|忘记|忘了|不要遵守|不要遵循|别遵守|停止遵守|"
            r"不再遵守|不必遵守|不用遵守|无须遵守|不要再遵守|别再遵守|不用再遵守|不要再遵循|违反|打破)"
            r"(?P<q>[^,。!?;\n]{0,14}?)"
            r"(?P<t>指令|指示|命令|规则|规定|设定|提示词|系统提示|约束|限制|政策|策略|准则|守则|"
            r"程序设定|安全策略|安全规则|安全限制|条款|说明|设置|prompt|instructions?|rules)",
            _FLAGS,
        ),
        _zh_override_ok,
    ),
    _Rule(
        "instruction_override",
        re.compile(
            r"(?:忽略|无视|忘掉|忘记|抛开|不要管|别管)(?:掉)?(?:之前|以前|先前|此前|上面|上述|前面|以上)"
            r"(?:的|所有的?|全部的?)?(?:一切|所有|全部|内容|对话|信息|话)"
        ),
        _zh_everything_ok,
    ),
    *_rules(
        "instruction_override",
        r"(?:新的|最新|更新的?|真正的|隐藏的|最高)(?:系统)?(?:指令|命令|提示词)\s*(?:如下|是|:)",
        r"(?:从现在(?:开始|起)|从此|今后|以后|往后)[,，]?\s*你(?:必须|只能|要|得|需要|应该)?(?:只)?"
        r"(?:服从|听从|遵守|执行|按照)(?:我的|以下|下面|新的?)",
        r"你(?:的)?新(?:任务|指令|规则|目标)(?:是|为|:)",
    ),
    # --- role_change ------------------------------------------------------------------------
    *_rules(
        "role_change",
        _w(
            r"you\s+are\s+now\s+(?:(?:an?|the|my)\s+(?:\w+\s+){0,3}?"
            + _ROLE_NOUNS
            + r"|dan|in\s+\w+\s+mode|(?:un)?(?:restricted|filtered|censored|jailbroken|limited|"
            r"bound)|free\s+(?:from|of)|no\s+longer|called|named|known\s+as|\w+gpt|acting\s+as|"
            r"playing|operating\s+as|a\s+different)"
        ),
        _w(
            r"(?:from\s+now\s+on|henceforth|starting\s+now|for\s+the\s+rest\s+of\s+(?:this|the)\s+"
            r"conversation),?\s+you\s+(?:are|will\s+be|act\s+as|play|behave\s+as|become|'re)"
        ),
        _w(
            r"act\s+as\s+(?:if\s+you\s+(?:are|were)\s+|though\s+you\s+(?:are|were)\s+)?"
            r"(?:an?|the|my)\s+(?:\w+\s+){0,3}?" + _ROLE_NOUNS
        ),
        _w(r"act\s+as\s+if\s+you\s+(?:have|had)\s+no\s+(?:rules|restrictions|limits|guidelines)"),
        rf"(?<!don't\s)(?<!do\snot\s)(?<!stop\s)(?<!never\s){_B}pretend\s+to\s+be{_E}",
        rf"(?<!don't\s)(?<!do\snot\s)(?<!stop\s)(?<!never\s){_B}pretend\s+(?:you\s+are|"
        rf"you're|that\s+you(?:'re|\s+are)?)\s+(?:(?:an?|the|my|now|no\s+longer)\s+)?"
        rf"(?:\w+\s+){{0,2}}?(?:{_ROLE_NOUNS[3:-1]}|not\s+bound|free\s+(?:of|from)|without\s+"
        rf"(?:rules|restrictions|limits)|allowed|able\s+to){_E}",
        _w(r"role-?\s?play\s+as|you\s+will\s+roleplay"),
        _w(
            r"(?:enter|enable|activate|switch\s+to|turn\s+on|go\s+into|unlock)\s+(?:the\s+)?"
            r"(?:developer|dev|god|debug|admin|jailbreak|jailbroken|dan|unrestricted|unfiltered|"
            r"sudo|maintenance|root|evil|chaos)\s+mode"
        ),
        _w(
            r"(?:developer|god|jailbreak|dan|sudo|admin|unrestricted)\s+mode\s+(?:is\s+)?(?:enabled|activated|on|engaged)"
        ),
        _w(r"do\s+anything\s+now|jailbreak(?:ed|ing)?\s+(?:prompt|mode|ai|assistant|version)"),
        _w(
            r"you\s+(?:are\s+)?no\s+longer\s+(?:an?\s+)?(?:bound|restricted|limited|required\s+to|"
            r"an?\s+(?:ai|assistant)|assistant|following|subject\s+to)"
        ),
        _w(
            r"(?:your|you\s+have\s+a)\s+new\s+(?:role|persona|identity|personality)\s*"
            r"(?:is|will\s+be|:)\s*(?:to|an?|the|that\s+of|[\"'])"
        ),
        _w(
            r"(?:an?\s+)?(?:ai|assistant|model|chatbot|bot|version\s+of\s+you)\s+(?:with(?:out)?|that\s+has)\s+"
            r"(?:no|any)\s+(?:restrictions|limitations|limits|filters|rules|guidelines|censorship|"
            r"ethical\s+guidelines|safety\s+guidelines|morals?)"
        ),
        _w(
            r"you\s+(?:now\s+)?(?:have|possess)\s+no\s+(?:more\s+)?(?:restrictions|limits|"
            r"limitations|rules|filters|guidelines|boundaries)"
        ),
        _w(
            r"without\s+(?:any\s+)?(?:ethical|moral|safety|content)\s+(?:restrictions|guidelines|limits|filters)"
        ),
    ),
    _Rule(
        "role_change",
        re.compile(
            r"(?<![A-Za-z])DAN(?![A-Za-z])(?=.{0,40}(?:mode|anything|jailbreak))|(?:you\s+are|act\s+as|become)\s+DAN(?![A-Za-z])",
            re.IGNORECASE,
        ),
        None,
    ),
    *_rules(
        "role_change",
        r"(?:从现在(?:开始|起)|从此|今后|从今以后|接下来)[,，]?\s*你(?:就|将)?(?:是|扮演|充当|作为|变成|成为|当|要扮演)",
        r"(?:你|请你|请)(?:来|现在)?(?:扮演|充当|假装(?:成|是)?|模拟|变成|成为)(?:一个|一名|一位|个)?"
        r"[^,。!?\n]{0,10}?(?:没有(?:任何)?限制|不受(?:任何)?(?:限制|约束|规则)|无限制|无约束|"
        r"不受审查|越狱|DAN|管理员|超级管理员|系统管理员|开发者|root|admin|黑客|邪恶|无所不能)",
        r"假装你是|你假装(?:成|是)|你现在扮演|请扮演|你来扮演",
        r"(?:进入|开启|启用|切换到|切换为|打开|激活)(?:到)?(?:开发者|上帝|越狱|调试|管理员|DAN|无限制|"
        r"超级|无审查|root|God|debug|admin)模式|(?:开发者|越狱|DAN|上帝|管理员)模式(?:已)?(?:开启|启用|激活)",
        r"你(?:已经)?不再是(?:一个|一名)?(?:AI|人工智能|助手|客服|机器人|模型|语言模型)",
        r"你的新(?:身份|角色|名字|人设)(?:是|为|:)",
        r"没有(?:任何)?(?:限制|约束|过滤|审查|道德|规则)的(?:AI|人工智能|助手|模型|机器人|版本)",
        r"(?:你|AI|助手)(?:现在)?(?:不受|没有)(?:任何)?(?:限制|约束|规则|审查)(?:了)?",
    ),
    _Rule(
        "role_change",
        re.compile(
            r"你(?:就)?(?:是|成为|变成|当)(?:一个|一名|一位|个|我的)?(?:没有限制|不受限制|无限制|"
            r"超级管理员|系统管理员|管理员|开发者|root|admin|DAN|黑客)",
            _FLAGS,
        ),
        _not_zh_question,
    ),
    _Rule(
        "role_change",
        re.compile(
            r"(?:你现在|现在你)(?:就)?(?:是|扮演|充当|作为|变成|成为)(?:一个|一名|一位|个|我的)?"
            r"[^,。!?\n]{0,12}?"
            r"(?:助手|管理员|AI|机器人|模型|开发者|专家|DAN|人工智能|黑客|root|admin|超级用户|"
            r"上帝|主人)",
            _FLAGS,
        ),
        _not_question,
    ),
    # --- prompt_exfiltration ----------------------------------------------------------------
    *_rules(
        "prompt_exfiltration",
        _w(
            r"(?:reveal|show|print|display|output|repeat|recite|tell|give|share|leak|dump|"
            r"write\s+out|spell\s+out|list|paste|copy|what\s+(?:is|are|was|were))\s+(?:me\s+|us\s+)?"
            r"(?:all\s+)?(?:of\s+)?(?:your|the)\s+(?:(?:full|entire|complete|exact|original|"
            r"initial|hidden|secret|internal|system|developer|confidential|underlying|verbatim|"
            r"first)\s+){1,3}(?:prompts?|instructions|directives|rules|guidelines|configuration|"
            r"pre-?prompt|messages?|context)"
        ),
        _w(
            r"(?:reveal|show|print|display|output|repeat|tell|give|share|leak|dump|paste|"
            r"what(?:'s|\s+is))\s+(?:me\s+)?(?:your|the)\s+(?:system\s+prompt|initial\s+prompt|"
            r"pre-?prompt|prompt)"
        ),
        _w(r"system\s+prompt\s+(?:verbatim|word\s+for\s+word)"),
        _w(
            r"(?:repeat|print|output|reproduce|copy|echo)\s+(?:back\s+)?(?:everything|all|the\s+"
            r"(?:text|words|content|messages?|instructions))\s+(?:above|before|preceding|prior|"
            r"you\s+were\s+given)"
        ),
        _w(r"(?:what|which)\s+(?:instructions|rules)\s+(?:were\s+you|have\s+you\s+been)\s+given"),
        r"(?:告诉我|告诉|说出|输出|打印|显示|展示|泄露|透露|复述|重复|给我看|发给我|发我|列出|写出|贴出|"
        r"背诵|念出)(?:一下)?(?:你的|你)?(?:完整的?|全部的?|原始的?)?(?:系统提示词?|系统提示语|系统指令|"
        r"系统设定|系统消息|system\s*prompt|初始(?:提示词?|指令|设定)|原始(?:提示词?|指令)|"
        r"隐藏(?:提示词?|指令)|内部(?:提示词?|指令)|提示词|预设指令)",
        r"(?:把|将)(?:你的)?(?:完整的?|全部的?|原始的?)?(?:系统提示词?|系统提示语|系统指令|系统设定|"
        r"system\s*prompt|初始(?:提示词?|指令)|原始(?:提示词?|指令)|隐藏(?:提示词?|指令)|"
        r"内部(?:提示词?|指令)|提示词)[^,。!?\n]{0,10}?(?:告诉|发|给|输出|打印|显示|说|贴|念)",
        r"(?:你的)?(?:系统提示词?|系统指令|system\s*prompt|初始指令|隐藏指令)(?:是什么|的内容|原文|写的什么)",
        r"你(?:收到|被给予|接收到)?的(?:指令|规则|设定)(?:原文|全文)",
    ),
    # --- policy_bypass ----------------------------------------------------------------------
    *_rules(
        "policy_bypass",
        _w(
            r"(?:bypass|circumvent|get\s+around|work\s+around|evade|sidestep)\s+(?:all\s+|any\s+|"
            r"the\s+|your\s+|every\s+|these\s+|those\s+)*(?:[\w-]+\s+){0,2}?(?:checks?|controls?|"
            r"filters?|reviews?|verifications?|restrictions?|limits?|safeguards?|guardrails?|"
            r"protections?|measures|screening|moderation|approvals?|authentication|polic(?:y|ies)|"
            r"rules|security|kyc|2fa|mfa)"
        ),
        _w(
            r"(?:skip|disable|turn\s+off|switch\s+off|deactivate|override|ignore|remove)\s+"
            r"(?:all\s+|any\s+|the\s+|your\s+|every\s+)*(?:security|safety|verification|identity|"
            r"fraud|anti-fraud|risk|kyc|aml|content|moderation|compliance|authentication|2fa|"
            r"two-factor|mfa|otp|age)\s+(?:checks?|controls?|filters?|reviews?|verifications?|"
            r"restrictions?|limits?|safeguards?|protections?|measures|screening|policies|policy|"
            r"rules|step)"
        ),
        _w(
            r"(?:disable|turn\s+off|switch\s+off|remove|drop|lift|deactivate)\s+(?:all\s+(?:of\s+)?)?"
            r"your\s+(?:\w+\s+)?(?:filters?|safety|restrictions|guardrails|rules|content\s+polic(?:y|ies)|"
            r"safeguards|limits|limitations|censorship|moderation)"
        ),
        _w(
            r"skip\s+(?:all|any|every)\s+(?:the\s+)?(?:checks|verification|verifications|reviews|approvals)"
        ),
        _w(
            r"(?:approve|accept|authori[sz]e|grant|process|issue|allow|pass|release|refund)\s+"
            r"(?:all|every|any|each)\b[^.!?\n]{0,60}?\bwithout\s+(?:any\s+)?(?:checks?|checking|"
            r"reviews?|reviewing|verification|verifying|approval|confirmation|questions|asking|"
            r"scrutiny|limits?|proof)"
        ),
        # An instruction, not a description of a store's policy ("We always accept returns").
        rf"(?:^|[,;:.!?\n]\s*|{_B}(?:please|just|and|you|you\s+(?:must|should|will|shall|need\s+to|"
        r"have\s+to|are\s+to))\s+)(?:always|automatically|unconditionally)\s+(?:approve|accept|"
        r"authori[sz]e|grant|refund|pass|allow|release)" + _E,
        rf"(?:^|[,;:.!?\n]\s*|{_B}(?:please|just|and|you|you\s+(?:must|should|will|shall|need\s+to|"
        r"have\s+to|are\s+to))\s+)never\s+(?:refuse|deny|reject|decline|question|say\s+no|"
        r"ask\s+for\s+(?:verification|id|proof|confirmation))" + _E,
        _w(
            r"(?:approve|refund|accept|grant)\s+(?:it|this|them|everything)\s+without\s+(?:any\s+)?(?:checks?|verification|review|approval)"
        ),
        _w(
            r"no\s+(?:checks|verification|review)\s+(?:needed|required|necessary)\s*[,;:]\s*(?:just\s+)?(?:approve|refund|grant|release)"
        ),
    ),
    _Rule(
        "policy_bypass",
        re.compile(
            r"(?:绕过|绕开|规避|无视|忽略)(?:掉)?(?:所有|一切|全部)?(?:的)?"
            r"(?:风控|风险控制|安全|审核|审查|审批|验证|校验|身份验证|身份核验|实名|人工审核|复核|"
            r"检查|核查|核实|过滤|防护|反欺诈|风险检测|合规|限制|安全策略)"
            r"(?:检查|审核|验证|系统|机制|流程|规则|策略|措施|限制|模块)?"
        ),
        _not_self_subject,
    ),
    _Rule(
        "policy_bypass",
        re.compile(
            r"(?:禁用|关闭|关掉|停用|解除|撤掉|去掉)(?:掉)?(?:所有|一切|全部)?(?:的)?"
            r"(?:风控|风险控制|审核|审查|人工审核|复核|反欺诈|风险检测|安全策略|安全检查|内容过滤|"
            r"安全过滤|安全限制|合规检查)"
        ),
        _not_self_subject,
    ),
    _Rule(
        "policy_bypass",
        re.compile(
            r"(?:跳过|避开|省略|免去|免掉)(?:所有|一切|全部)?(?:的)?(?:风控|风险控制|安全|审核|审查|审批|"
            r"验证|校验|身份验证|实名|人工审核|复核|检查|核查|核实)"
        ),
        _not_question,
    ),
    _Rule(
        "policy_bypass",
        re.compile(
            r"(?:以后|今后|从现在(?:开始|起)|从此|往后|永远|一律|所有|全部|任何|每次|每一[笔个单次]|凡是)"
            r"[^。!?\n]{0,20}?(?:都|一律|全部|统统|直接|自动|无条件)[^。!?\n]{0,6}?"
            r"(?:批准|通过(?=$|[,。!?;\s]|审核|审批|申请|吧)|同意|放行|打款|解封|审批通过)"
        ),
        _zh_bypass_clause,
    ),
    *_rules(
        "policy_bypass",
        r"(?:不用|无需|不需要|不必|不经过?|跳过|免)(?:任何)?(?:审核|审批|检查|验证|核实|核查|风控|人工)"
        r"[^。!?\n]{0,10}?(?:直接|就)?(?:批准|通过|放行|打款|退款|发放)",
        r"(?:直接|无条件|自动)(?:批准|通过|放行|打款|退款)[^。!?\n]{0,10}?(?:不用|无需|不需要|不必|不经过?|跳过|免)"
        r"(?:任何)?(?:审核|审批|检查|验证|核实|核查|风控|人工)",
        r"(?:永远|始终|一律|任何情况下)(?:都)?(?:不要|不许|不准|不得|不能|别|不)(?:拒绝|驳回|质疑)|"
        r"(?:绝不|绝对不要?|绝对不能)(?:拒绝|驳回|质疑)|"
        r"不(?:要|许|准|得)(?:拒绝|驳回|质疑)任何(?:退款|请求|申请|要求)",
    ),
    # --- data_exfiltration ------------------------------------------------------------------
    _Rule(
        "data_exfiltration",
        re.compile(
            _w(
                r"(?:send|forward|email|e-mail|post|upload|transmit|transfer|leak|share|copy|"
                r"export|exfiltrate|dump|submit|text|sms)\s+(?:all\s+|the\s+|this\s+|every\s+|"
                r"any\s+|of\s+)*(?:(?:users?|customers?|clients?|buyers?|members?|account\s+"
                r"holders?|people)(?:'s|s'|')?|their|his|her|all|everyone'?s?)\s+(?:[\w-]+\s+){0,3}?"
                r"(?:data|details|info(?:rmation)?|records?|phone(?:\s+numbers?)?|numbers?|"
                r"address(?:es)?|emails?|e-mail\s+addresses|contacts?|passwords?|credentials|"
                r"credit\s+cards?|card\s+(?:numbers|details)|ssns?|history|messages|"
                r"conversations?|chats?|memor(?:y|ies)|files|documents|pii|profiles?)"
            ),
            _FLAGS,
        ),
        lambda text, m: bool(
            re.match(
                r"[^.!?\n]{0,40}?\b(?:to|at|via|into)\s+(?:https?://|www\.|\S+@\S+\.\w+|\+?\d[\d\s\-]{6,}|"
                r"(?:this|that|the\s+following|my|our)\s+(?:address|email|number|url|link|"
                r"endpoint|server|webhook|site|account)|me\b|us\b|\S+\.(?:com|net|org|io|ru|cn|xyz))",
                text[m.end() :],
                re.IGNORECASE,
            )
        ),
    ),
    *_rules(
        "data_exfiltration",
        r"(?:把|将)(?:该|这个|这位|此|所有|全部|每个|每位)?(?:的)?(?:用户|客户|买家|会员|顾客|他|她|他们|"
        r"对方|别人|其他用户|大家)(?:们)?(?:的)?(?:所有|全部)?(?:的)?(?:手机号码?|电话(?:号码)?|联系方式|"
        r"地址|住址|身份证(?:号码?)?|银行卡(?:号)?|卡号|密码|账号|个人信息|隐私|数据|资料|信息|聊天记录|"
        r"对话记录|订单(?:信息|记录)|邮箱|记忆|验证码)[^。!?\n]{0,12}?(?:发到|发送到|发送给|发给|传到|上传到|"
        r"上传至|转发到|转发给|泄露给|提供给|告诉|同步到|抄送|发往|回传|贴到|提交到|发至)",
        r"(?:发送|转发|上传|导出|泄露)(?:所有|全部)?(?:的)?(?:用户|客户|买家|会员)(?:的)?(?:数据|信息|资料|"
        r"手机号|电话|地址|隐私|聊天记录)(?:到|给|至)",
    ),
    # --- hidden_directive -------------------------------------------------------------------
    *_rules(
        "hidden_directive",
        r"<\|(?:im_start|im_end|system|user|assistant|endoftext|begin_of_text|start_header_id|"
        r"end_header_id|eot_id|end|im_sep)\|>",
        r"\[/?INST\]|<</?SYS>>|<start_of_turn>|<end_of_turn>|\[\[\s*(?:system|admin|developer|"
        r"override|instruction)[^\]\n]{0,40}\]\]",
        r"\[\s*(?:system|admin|developer)\s*\]\s*(?=[^\n]{0,60}?(?:ignore|\byou|always|never|must|"
        r"approve|override|disable|忽略|你|必须))",
        r"\[\s*(?:system|admin|developer|root)\s+(?:override|prompt|instructions?|command|"
        r"message|note|directive)\s*\]|<\s*/?\s*(?:system|system[-_]prompt|instructions?|"
        r"admin|developer)\s*>",
        _w(
            r"(?:system|admin|administrator|developer|security|root|emergency)\s+"
            r"(?:override|directive|command)"
        ),
        r"(?:^|\n)\s*#{2,}\s*(?:system|instruction|instructions|new\s+instructions)\b",
        _w(
            r"(?:(?:ai|llm|gpt|chatgpt|claude|gemini|copilot|language[- ]models?|assistants?|"
            r"chatbots?|bots?|agents?|crawlers?|models?)s?\s*(?:\(s\)\s*)?(?:that\s+(?:is|are)\s+|"
            r"who\s+(?:is|are)\s+)?(?:reading|processing|parsing|summari[sz]ing|analy[sz]ing|"
            r"scraping|crawling|seeing|visiting|viewing|browsing|indexing)\s+(?:this|these|the\s+"
            r"following|my)\s*(?:page|text|review|message|document|content|email|site|website|"
            r"listing|comment|post)?)"
        ),
        _w(
            r"(?:if|when)\s+you\s+(?:are|'re)\s+(?:an?\s+)?(?:ai|llm|large\s+language\s+model|"
            r"language\s+model|assistant|chatbot|bot|agent|gpt)"
        ),
        _w(
            r"(?:note|message|instructions?|attention|notice|memo|directive)\s+(?:to|for)\s+"
            r"(?:the\s+|any\s+|all\s+)?(?:ai|llm|assistant|chatbot|bot|agent|model|gpt)s?"
        ),
        _w(
            r"when(?:ever)?\s+you\s+(?:read|see|process|encounter|summari[sz]e|parse)\s+(?:this|these)"
        ),
        _w(
            r"(?:do\s+not|don'?t|never)\s+(?:tell|inform|mention\s+(?:this\s+)?to|reveal\s+(?:this\s+)?"
            r"to|alert|notify)\s+(?:the\s+)?(?:user|customer|human|operator|admin|moderator)"
        ),
        _w(
            r"(?:for|to|attention|calling)\s+(?:all\s+|any\s+|the\s+)?(?:ai|llm|gpt)\s*"
            r"(?:agents?|assistants?|models?|bots?|systems?|readers?|crawlers?)\s*:"
        ),
        _w(r"(?:attention|calling)\s+(?:all\s+)?(?:ai|llm)s?\s*[:!]"),
        _w(
            r"(?:i\s+am|i'?m|this\s+is)\s+your\s+(?:developer|creator|programmer|administrator|"
            r"admin|owner|operator|system\s+administrator|supervisor)s?"
        ),
        _w(
            r"this\s+is\s+(?:a\s+message\s+from\s+)?(?:your|the)\s+(?:developer|creator|system\s+administrator|admin)s?"
        ),
        r"<!--[^>]{0,400}?(?:ignore|instruction|assistant|\bAI\b|system|忽略|指令|助手)[^>]{0,400}?-->",
        r"(?:^|[\n.!?。])\s*[\"'“]?\s*(?:system|sys)\s*(?:prompt|message)?\s*[:]\s*(?=[^\n]{0,80}?"
        r"(?:\byou\b|\byour\b|ignore|always|never|must|approve|from\s+now\s+on|act\s+as|pretend|"
        r"instructions?|rules?|你|忽略|无视|从现在|必须|批准|规则))",
        r"(?:^|[\n。!?])\s*[【\[]?\s*系统\s*[】\]]?\s*[:]\s*(?=[^\n]{0,40}?(?:你|忽略|无视|从现在|以后|"
        r"批准|必须|规则|指令))",
        r"当你(?:读到|看到|阅读|处理|收到|解析|扫描)(?:这段|这条|这些|此|本|这个|这篇|以下|这里)",
        r"如果你是(?:一个|一位)?(?:AI|人工智能|大模型|语言模型|机器人|智能助手|助手|GPT|ChatGPT|智能体|客服机器人)",
        r"(?:AI|人工智能|大模型|语言模型|智能助手|机器人|模型|智能体|爬虫)(?:助手)?(?:们)?(?:在)?"
        r"(?:读到|看到|阅读|处理|解析|抓取|浏览)(?:这段|这条|此|本|这个|这篇|该)",
        r"(?:致|给|写给|对)(?:所有|任何)?(?:的)?(?:AI|人工智能|大模型|智能助手|机器人|智能体)(?:助手)?"
        r"(?:们)?(?:的)?(?:指令|说明|消息|留言|提示)?\s*[:]",
        r"[【\[]\s*(?:系统指令|系统覆盖|系统命令|管理员指令|开发者指令|最高指令|隐藏指令|系统提示)\s*[】\]]|"
        r"(?:系统指令|系统覆盖|管理员指令|开发者指令|最高指令|隐藏指令)\s*[:]",
        r"(?:不要|别|切勿|不得|千万别)(?:把这[件个]事|把这些)?(?:告诉|通知|透露给|提醒)(?:用户|客户|买家|对方)",
        r"(?:AI|人工智能|智能助手|机器人|助手)(?:们)?(?:请注意|注意|请)\s*[:,]",
    ),
)


# --- task_hijack: a "policy" or a standing order slipped into data, most often to leak what the
# agent holds about the user ------------------------------------------------------------------
_DATA_NOUN = (
    r"(?:phone|mobile|number|address|e-?mail|password|passcode|card|account|iban|ssn|id|"
    r"identity|data|details|information|info|history|messages|records|contacts|location|"
    r"credentials|token|otp|pin)"
)
_LEAK_VERB = (
    r"(?:include|add|append|attach|mention|insert|cc|bcc|copy|forward|send|share|reveal|"
    r"disclose|output|print|leak|expose|provide|give|tell|list|email|post|upload)"
)
_HIJACK_AFTER = re.compile(
    rf"{_B}(?:{_LEAK_VERB}\w*\s+(?:\w+\s+){{0,4}}?(?:(?:the\s+)?(?:user|customer|client|caller|"
    r"buyer|account\s+holder)|their|all)|(?:ignore|disregard|bypass|skip|override)\s+(?:all|any|"
    r"the|your|previous|prior|existing|verification|checks?|rules?|instructions?|guidelines?)|"
    r"(?:approve|refund|grant|unlock|waive)\w*\s+(?:all|every|any|the\s+(?:refund|request|claim)s?)|"
    r"the\s+(?:assistant|agent|ai|bot|model)|you\s+(?:must|should|will|are\s+to))|"
    rf"{EMAIL}|https?://",
    _FLAGS,
)
_ZH_HIJACK_AFTER = re.compile(
    r"带上|附上|加上|包含|写上|提供|发送|发给|发到|转发|抄送|透露|告诉|一律|总是|必须|务必|忽略|退款|"
    r"批准|授予|权限|管理员|折扣|优惠码|支付|付款|添加微信|手机|电话|地址|身份证|银行卡|密码|个人信息|"
    rf"{EMAIL}|https?://"
)


def _hijack_after(text: str, m: re.Match[str]) -> bool:
    return bool(
        _HIJACK_AFTER.search(text, m.end(), m.end() + 120)
        or _ZH_HIJACK_AFTER.search(text, m.end(), m.end() + 60)
    )


def _zh_hijack_after(text: str, m: re.Match[str]) -> bool:
    return bool(_ZH_HIJACK_AFTER.search(text, m.end(), m.end() + 60))


_ADDRESS = rf"(?:{EMAIL}|https?://\S+|pastebin|webhook)"
_ZH_DATA = (
    r"(?:系统提示词?|提示词|聊天记录|对话记录|退款记录|订单记录|客户(?:姓名|资料|信息|数据)|"
    r"用户(?:资料|信息|数据|手机号?|电话|地址|邮箱)|银行卡|卡号|身份证|手机号|收货地址)"
)

_HIJACK_RULES: tuple[_Rule, ...] = (
    *_rules(
        "task_hijack",
        # a standing order to copy replies somewhere
        _w(
            r"(?:always|from\s+now\s+on|going\s+forward|henceforth|in\s+(?:every|all|each)\s+"
            r"(?:future\s+)?(?:reply|replies|response|responses|message|messages))[,:]?\s+"
            r"(?:please\s+)?(?:cc|bcc|copy|forward|send|email|mirror)\s+(?:a\s+copy\s+of\s+)?"
            r"(?:\w+\s+){0,3}?(?:to\s+)?"
        )
        + _ADDRESS,
        # an order addressed to the assistant
        _w(
            r"(?:standing|permanent|long[- ]term|special|secret|hidden)\s+(?:order|instruction|"
            r"directive|rule|command)s?\s+(?:for|to)\s+(?:the\s+)?(?:assistant|agent|ai|bot|model|"
            r"support\s+(?:ai|bot|agent))"
        ),
        r"给(?:客服)?(?:助手|AI|ai|机器人|智能客服|客服机器人)的(?:长期|永久|新|特别|秘密)?(?:指令|指示|规定|"
        r"规则|命令|要求)",
        r"(?:每条|每次|所有|全部)(?:回复|回答|答复|消息)[^。!?\n]{0,10}?(?:都要|一律|总是|务必|必须)"
        r"[^。!?\n]{0,8}?(?:带上|附上|加上|包含|写上|抄送|转发|发送)",
        # data out to an address
        _w(
            r"(?:send|forward|email|share|upload|post|copy|transmit|exfiltrate|paste)\s+"
            r"(?:\w+\s+){0,4}?(?:data|details|information|info|records?|conversations?|history|"
            r"messages|contacts|passwords?|card\s+numbers?|phone\s+numbers?|addresses|prompt)\b"
            r"[^.\n]{0,60}?"
        )
        + _ADDRESS,
        _w(
            r"(?:embed|include|put|append|hide)\s+(?:\w+\s+){0,4}?(?:emails?|phones?|phone\s+numbers?|"
            r"address(?:es)?|data|numbers?|details)\b[^.\n]{0,60}?(?:image|link|url|markdown)"
        ),
        rf"{_ZH_DATA}[^。!?\n]{{0,40}}?(?:导出|转发|发送|发给|发到|贴到|上传|POST|post)"
        rf"[^。!?\n]{{0,40}}?(?:{_ADDRESS}|网址|链接|邮箱)",
        r"(?:POST|post|上传|发送|转发|send|forward|upload)\s*(?:到|给|to)\s*" + _ADDRESS,
    ),
    *_rules(
        "instruction_override",
        _w(
            r"(?:ignore|disregard|forget|drop)\s+(?:all\s+)?(?:the\s+)?(?:rules|instructions|"
            r"guidelines|guidance|directions)\s+(?:you\s+(?:were|have\s+been|got)\s+(?:given|"
            r"told)|(?:you\s+)?(?:got|received)|(?:given\s+)?(?:earlier|before|previously))"
        ),
        r"系统\s*[:：]\s*(?:该|此|这[个位])?(?:用户|客户|账号)[^。!?\n]{0,12}?(?:已|被)(?:验证|认证|授权|"
        r"确认)",
    ),
    *_rules(
        "task_hijack",
        _w(
            r"(?:always|from\s+now\s+on|going\s+forward|henceforth|in\s+(?:every|all|each)\s+"
            r"(?:future\s+)?(?:reply|replies|response|responses|answer|answers|message|messages|"
            r"email|emails))[,:]?\s+(?:you\s+(?:must|should|will)\s+)?(?:also\s+)?"
            rf"{_LEAK_VERB}\s+(?:a\s+copy\s+of\s+)?(?:the\s+)?(?:(?:user|customer|client|caller|"
            r"buyer|account\s+holder)(?:'s|s'|s)?|their|all\s+(?:user|customer)s?'?)\s+"
            rf"(?:\w+\s+){{0,3}}{_DATA_NOUN}"
        ),
        _w(
            r"(?:send|forward|email|share|upload|post|copy|transmit|exfiltrate)\s+(?:a\s+copy\s+"
            r"of\s+)?(?:all\s+|every\s+|the\s+)?(?:(?:user|customer)(?:'s|s')?\s+)?"
            r"(?:data|details|information|info|records?|conversations?|chat\s+history|messages|"
            r"contacts|passwords?|card\s+numbers?|phone\s+numbers?|addresses)\b[^.\n]{0,60}?"
            rf"(?:{EMAIL}|https?://\S+)"
        ),
    ),
    # a notice or a word to the assistant, taken as an attack when an order follows it
    *_rules(
        "task_hijack",
        _w(
            r"(?:new|updated|revised|important|urgent|mandatory|official)\s+(?:company\s+|"
            r"store\s+|security\s+)?(?:policy|rule|procedure|instruction|requirement|"
            r"directive|protocol|guideline)s?"
        )
        + r"[^.\n:：]{0,20}?\s*[:\-–—：，,]",
        _w(
            r"(?:system|admin|administrator|developer|security|ops)\s+"
            r"(?:update|notice|message|alert|override|note)"
        )
        + r"\s*[:\-–—]",
        _w(
            r"(?:dear\s+)?(?:ai|assistant|agent|bot|model|llm|chatbot)s?"
            r"(?:\s+(?:reading|processing|summari[sz]ing)\s+this)?"
        )
        + r"\s*[:,]\s*(?:please\s+)?"
        r"(?:note|remember|make\s+sure|be\s+sure|you\s+must|always|when)",
        check=_hijack_after,
    ),
    *_rules(
        "task_hijack",
        r"新(?:的)?(?:规定|规则|政策|指令|要求|流程|通知)[:：]",
        r"系统(?:通知|更新|消息|公告|提示)?\s*[:：]",
        check=_zh_hijack_after,
    ),
    *_rules(
        "task_hijack",
        r"(?:从现在起|从今以后|以后|今后|往后|每次)[^。!?\n]{0,16}?(?:都要|一律|总是|务必|必须)"
        r"[^。!?\n]{0,8}?(?:带上|附上|加上|包含|写上|提供|发送|转发|透露|告诉)[^。!?\n]{0,10}?"
        r"(?:用户|客户|买家)[^。!?\n]{0,6}?(?:手机|电话|号码|地址|身份证|银行卡|卡号|密码|邮箱|"
        r"个人信息|聊天记录|资料)",
        r"(?:把|将)(?:所有)?(?:用户|客户|买家)的?[^。!?\n]{0,6}?(?:手机号|电话|号码|地址|身份证|"
        r"银行卡|卡号|密码|邮箱|个人信息|聊天记录|资料|数据)[^。!?\n]{0,12}?(?:发给|发送到|发到|"
        r"转发给|转给|透露给|上传到|抄送)",
    ),
)
#: The rules before the task-hijack rules and the hidden views were added: the baseline that
#: `memctl bench detectors` measures beside the detector.
_RULES_BEFORE_HARDENING = _INJECTION_RULES
_INJECTION_RULES = _INJECTION_RULES + _HIJACK_RULES


def _tag_characters(text: str) -> Iterator[tuple[int, int]]:
    """Runs of invisible Unicode tag characters: text smuggled past a human reader."""
    i = 0
    n = len(text)
    while i < n:
        if _is_tag(text[i]):
            j = i
            while j < n and _is_tag(text[j]):
                j += 1
            if j - i >= 3:
                yield i, j
            i = j
        else:
            i += 1


def find_injections(text: str, folded: _Folded) -> list[Detection]:
    """`detect_injection` on `text` and its folded copy with lookalike letters folded too; then
    on each hidden view of it (letters spaced out, base64, hex, rot13): a directive found there
    is `obfuscated_directive` over the whole run. Tag characters are looked for in the original,
    since folding drops them."""
    plain = deconfuse(folded.text)
    ruled = _apply(_INJECTION_RULES, plain)
    # A passage the signals find is a hijack where no rule has named what it is already.
    signalled = [
        (s, e, "task_hijack")
        for s, e in find_hijacks(plain)
        if not any(rs < e and s < re_ for rs, re_, _ in ruled)
    ]
    spans = _merge_same_category(ruled + signalled)
    found = _to_detections(folded, "prompt_injection", spans)
    hidden = list(views(plain))
    whole = revealed(plain, hidden)
    if whole is not None and not found:
        hidden.append(View(0, len(plain), whole, "revealed"))
    for view in hidden:
        decoded = deconfuse(view.text)
        if _apply(_INJECTION_RULES, decoded) or find_hijacks(decoded):
            start, end = folded.span(view.start, view.end)
            found.append(
                Detection(
                    reason="prompt_injection",
                    category="obfuscated_directive",
                    start=start,
                    end=end,
                )
            )
    for s, e in _tag_characters(text):
        found.append(
            Detection(reason="prompt_injection", category="hidden_directive", start=s, end=e)
        )
    return sorted(found, key=lambda d: (d.start or 0, d.end or 0))


def detect_injection(text: str) -> list[Detection]:
    """Text that tries to instruct the agent or change its rules (reason "prompt_injection")."""
    return find_injections(text, _fold(text))


def detect_injection_before_hardening(text: str) -> bool:
    """Whether the detector as it was before hardening (no lookalike folding, no hidden views,
    no task-hijack rules) finds an injection: the baseline of `memctl bench detectors`."""
    folded = _fold(text)
    return bool(_apply(_RULES_BEFORE_HARDENING, folded.text)) or any(_tag_characters(text))
