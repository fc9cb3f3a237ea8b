"""Prompt injection: text that tries to instruct the agent or change its rules."""

from __future__ import annotations

import re
from collections.abc import Iterator

from governed_memory.memory.write.detectors._text import (
    _B,
    _E,
    _FLAGS,
    Detection,
    _apply,
    _fold,
    _Folded,
    _merge_same_category,
    _Rule,
    _rules,
    _to_detections,
    _w,
)
from governed_memory.memory.write.detectors.accounts import _ACCOUNT_RULES
from governed_memory.memory.write.detectors.composed import COMPOSED_RULES
from governed_memory.memory.write.detectors.exemptions import _EXEMPTION_RULES
from governed_memory.memory.write.detectors.favours import _FAVOUR_RULES
from governed_memory.memory.write.detectors.hijack import _HIJACK_RULES
from governed_memory.memory.write.detectors.injection_cues import (
    _DENIED_AFTER,
    _DENIED_BEFORE,
    _NOT_ASKED_TO_POSE,
    _OVERRIDE_QUALIFIER,
    _OVERRIDE_TARGET,
    _PRACTICE,
    _ROLE_NOUNS,
    _authority_after,
    _examples_quoted,
    _not_prohibited,
    _not_question,
    _not_zh_question,
    _strong_override,
    _zh_asked_to_skip,
    _zh_bypass_clause,
    _zh_everything_ok,
    _zh_ordered,
    _zh_override_ok,
    in_game_rules,
)
from governed_memory.memory.write.detectors.misstated import MISSTATED_RULES
from governed_memory.memory.write.detectors.obfuscation import View, deconfuse, revealed, views
from governed_memory.memory.write.detectors.others import OTHERS_RULES
from governed_memory.memory.write.detectors.powers import POWER_RULES
from governed_memory.memory.write.detectors.privileged import PRIVILEGED_RULES
from governed_memory.memory.write.detectors.ranks import _RANK_RULES
from governed_memory.memory.write.detectors.signals import find_hijacks
from governed_memory.memory.write.detectors.staff import STAFF_RULES
from governed_memory.memory.write.detectors.voided import VOIDED_RULES

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
            r"(?:said|written|stated)\s+(?:above|before|earlier)"
            # "forget everything you know about cheap headphones": a reviewer's figure of speech
            r"|you\s+know(?!\s+about\s+(?!(?:your|the|these|those|my)\s+(?:rules|instructions"
            r"|guidelines|policies|prompt|restrictions|training)\b)))"
        ),
        _w(
            r"ignore\s+what\s+(?:you\s+(?:were|have\s+been|'ve\s+been)\s+told|your\s+(?:rules|instructions)\s+say)"
        ),
        _w(
            r"(?:new|updated|revised|real|actual|true|secret|hidden|additional|override)\s+"
            r"(?:system\s+)?(?:instructions?|prompt|directives?|orders)\s*(?::|follow|are|is)"
            r"(?!\s+(?:in|on|at|under|attached|available|linked|saved|stored)\b)"  # (a file kept)
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
        # the writer made the only one obeyed ("ignore them and follow only what I type next")
        _w(
            r"(?<!i\s)(?<!we\s)(?:follow|obey|do|execute)\s+only\s+(?:what|whatever)\s+i\s+(?:type|say"
            r"|write|tell\s+you)"
            r"(?:\s+(?:next|from\s+now\s+on|after\s+this))?"
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
    *_RANK_RULES,
    *_rules(
        "role_change",
        _w(
            r"you\s+are\s+now\s+(?:(?:an?|the|my)\s+(?!(?:\w+\s+){0,2}?(?:favou?rite|best|go-to)\b)"
            r"(?!(?:first|second|third|fourth|fifth|sixth|\d+(?:st|nd|rd|th)|next|last|only)\b)"
            r"(?:\w+\s+){0,3}?"
            + _ROLE_NOUNS
            + r"|dan|in\s+\w+\s+mode|(?:un)?(?:restricted|filtered|censored|jailbroken|limited|"
            r"bound)|free\s+(?:from|of)|no\s+longer|called|named|known\s+as|\w+gpt|acting\s+as|"
            r"playing|operating\s+as|a\s+different)"
        ),
        _w(
            r"(?:from\s+now\s+on|henceforth|starting\s+now|for\s+the\s+rest\s+of\s+(?:this|the)\s+"
            r"conversation),?\s+you\s+(?:are|will\s+be|act\s+as|play|behave\s+as|become|'re)"
        ),
        # (the writer asking for themself, "can I act as the administrator?", or a permission)
        r"(?<!\bi\s)(?<!\bwe\s)(?<!\bmay\s)(?<!\bcan\s)"
        + _w(
            r"act\s+as\s+(?:if\s+you\s+(?:are|were)\s+|though\s+you\s+(?:are|were)\s+)?"
            r"(?:an?|the|my)\s+(?:\w+\s+){0,3}?" + _ROLE_NOUNS
        )
        + r"(?![^.\n]{0,60}?\bonly\s+if\b)",
        _w(r"act\s+as\s+if\s+you\s+(?:have|had)\s+no\s+(?:rules|restrictions|limits|guidelines)"),
        rf"{_NOT_ASKED_TO_POSE}{_B}pretend\s+to\s+be{_E}{_PRACTICE}",
        rf"(?<!don't\s)(?<!do\snot\s)(?<!stop\s)(?<!never\s){_B}pretend\s+(?:you\s+are|"
        rf"you're|that\s+you(?:'re|\s+are)?)\s+(?:(?:an?|the|my|now|no\s+longer)\s+)?"
        rf"(?:\w+\s+){{0,2}}?(?:{_ROLE_NOUNS[3:-1]}|not\s+bound|free\s+(?:of|from)|without\s+"
        rf"(?:rules|restrictions|limits)|allowed|able\s+to){_E}",
        _w(r"role-?\s?play\s+as|you\s+will\s+roleplay") + _PRACTICE,
        _w(
            r"(?:enter|enable|activate|switch\s+to|turn\s+on|go\s+into|unlock)\s+(?:the\s+)?"
            r"(?:developer|dev|god|debug|admin|jailbreak|jailbroken|dan|unrestricted|unfiltered|"
            r"sudo|maintenance|root|evil|chaos)\s+mode"
        ),
        _w(
            r"(?:developer|god|jailbreak|dan|sudo|admin|unrestricted)\s+mode\s+(?:is\s+)?"
            r"(?:enabled|activated|on(?!\s+(?:the|a|an|my|your|this|that|our|its|his|her)\b)|engaged)"
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
            # "DAN" as the jailbreak persona ("DAN mode", "DAN can do anything now"), in one
            # sentence: not a colleague called Dan who "swapped Tuesday … if anything looks off".
            r"(?<![A-Za-z])DAN(?![A-Za-z])(?=[^.!?\n]{0,40}?(?:\bmode\b|do\s+anything|jailbreak))"
            r"|(?:you\s+are|act\s+as|become)\s+DAN(?![A-Za-z])",
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
        # (an everyday role in a game: "假装你是导游，我女儿在玩环游北京的游戏")
        r"(?:假装你是|你假装(?:成|是)|你现在扮演|请扮演|你来扮演)(?!(?:一个|一位|一名|个)?(?:导游|老师|店员"
        r"|顾客|客人|面试官|服务员|售货员|圣诞老人|医生|护士|船长|主持人|讲解员))",
        # (a device's: "这款平板打开开发者模式很简单")
        r"(?<!平板)(?<!手机)(?<!电脑)(?<!电视)(?<!设置里)(?<!系统里)"
        r"(?:进入|开启|启用|切换到|切换为|打开|激活)(?:到)?(?:开发者|上帝|越狱|调试|管理员|DAN|无限制|"
        r"超级|无审查|root|God|debug|admin)模式(?![^。！？\n]{0,12}?(?:很简单|就行|即可|步骤|方法|装|安装))"
        r"|(?:开发者|越狱|DAN|上帝|管理员)模式(?:已)?(?:开启|启用|激活)",
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
            r"write\s+out|spell\s+out|list|paste|copy|what\s+(?:is|are|was|were)|(?:mind|try)\s+"
            r"(?:revealing|showing|sharing|pasting|listing|printing|giving|telling))\s+(?:me\s+|us\s+)?"
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
        r"(?:把|将)\s*(?:你的)?\s*(?:完整的?|全部的?|原始的?)?(?:系统提示词?|系统提示语|系统指令|系统设定|"
        r"system\s*prompt|初始(?:提示词?|指令)|原始(?:提示词?|指令)|隐藏(?:提示词?|指令)|"
        r"内部(?:提示词?|指令)|提示词)[^,。!?\n]{0,16}?(?:告诉|发|给|输出|打印|显示|说|贴|念|翻译)",
        r"(?:你的)?(?:系统提示词?|系统指令|system\s*prompt|初始指令|隐藏指令)(?:是什么|的内容|原文|写的什么"
        r"|[^,。!?\n]{0,10}?(?:发给我|发我|给我看|贴出来))",
        r"你(?:收到|被给予|接收到)?的(?:指令|规则|设定)(?:原文|全文)",
        check=_not_prohibited,  # "it must never reveal the system prompt": a design note
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
            r"(?:suspend|pause|lift)\s+(?:all\s+(?:of\s+)?)?your\s+(?:usage|content|safety|"
            r"moderation)\s+(?:polic(?:y|ies)|rules|guidelines|filters|guardrails)"
        ),
        _w(
            r"(?:disable|turn\s+off|switch\s+off|remove|drop|lift|deactivate)\s+(?:all\s+(?:of\s+)?)?"
            r"your\s+(?:\w+\s+)?(?:filters?|safety|restrictions|guardrails|rules|content\s+polic(?:y|ies)|"
            r"safeguards|limits|limitations|censorship|moderation)"
        ),
        _w(
            r"skip\s+(?:all|any|every)\s+(?:the\s+)?(?:checks|verification|verifications|reviews|approvals)"
        ),
        # money's own limits switched off ("disable rate limits and refund checks"); someone's
        # right to override one is a policy ("admins will be able to override refund limits")
        _w(
            r"(?:disable|turn\s+off|switch\s+off|deactivate|skip|remove|lift)\s+(?:all\s+|any\s+|the\s+"
            r"|your\s+)*(?:rate|refund|payment|spending|withdrawal|transfer|credit)\s+(?:checks?|limits?"
            r"|limitations?|controls?|verifications?|reviews?)"
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
        # "leadership will never ask you to bypass approval": a warning, not an order
        check=_not_prohibited,
    ),
    _Rule(
        "policy_bypass",
        re.compile(
            r"(?:绕过|绕开|规避|无视|忽略)(?:掉)?(?:所有|一切|全部)?(?:的)?"
            r"(?:风控|风险控制|安全|审核|审查|审批|验证|校验|身份验证|身份核验|实名|人工审核|复核|"
            r"检查|核查|核实|过滤|防护|反欺诈|风险检测|合规|限制|安全策略)"
            r"(?:检查|审核|验证|系统|机制|流程|规则|策略|措施|限制|模块)?"
        ),
        _zh_ordered,
    ),
    _Rule(
        "policy_bypass",
        re.compile(
            r"(?:禁用|关闭|关掉|停用|解除|撤掉|去掉)(?:掉)?(?:所有|一切|全部)?(?:的)?"
            r"(?:风控|风险控制|审核|审查|人工审核|复核|反欺诈|风险检测|安全策略|安全检查|内容过滤|"
            r"安全过滤|安全限制|合规检查)"
        ),
        _zh_ordered,
    ),
    _Rule(
        "policy_bypass",
        re.compile(
            r"(?:跳过|避开|省略|免去|免掉)(?:所有|一切|全部)?(?:的)?(?:风控|风险控制|安全|审核|审查|审批|"
            r"验证|校验|身份验证|实名|人工审核|复核|检查|核查|核实)"
        ),
        _zh_asked_to_skip,
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
        r"[^。!?\n]{0,10}?(?:直接|就)?(?:批准|通过|放行|打款|退款|发放)(?!上限|额度|限额)",
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
        # "禁止将客户数据粘贴到公共聊天机器人中": a rule that forbids it
        check=_zh_ordered,
    ),
    # --- hidden_directive -------------------------------------------------------------------
    _Rule(
        "hidden_directive",
        re.compile(
            _w(
                r"(?:system|admin|administrator|developer|security|root|emergency)\s+"
                r"(?:override|directive|command)"
            ),
            _FLAGS,
        ),
        # "admin override no longer bypasses the audit log": a feature described, not invoked
        lambda text, m: (
            not _DENIED_AFTER.match(text, m.end())
            and not _DENIED_BEFORE.search(text, max(0, m.start() - 25), m.start())
        ),
    ),
    *_rules(
        "hidden_directive",
        r"<\|(?:im_start|im_end|system|user|assistant|endoftext|begin_of_text|start_header_id|"
        r"end_header_id|eot_id|end|im_sep)\|>",
        r"\[/?INST\]|<</?SYS>>|<start_of_turn>|<end_of_turn>|\[\[\s*(?:system|admin|developer|"
        r"override|instruction)[^\]\n]{0,40}\]\]",
        r"\[\s*(?:system|admin|developer)\s*\]\s*(?=[^\n]{0,60}?(?:ignore|\byou\b|always|never|must|"
        r"approve|override|disable|忽略|你|必须))",
        r"\[\s*(?:system|admin|developer|root)\s+(?:override|prompt|instructions?|command|"
        r"message|note|directive)\s*\]|<\s*/?\s*(?:system|system[-_]prompt|instructions?|"
        r"admin|developer)\s*>",
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


#: The rules before the task-hijack rules and hidden views: `memctl bench detectors`' baseline.
_RULES_BEFORE_HARDENING = _INJECTION_RULES
_INJECTION_RULES = _INJECTION_RULES + _HIJACK_RULES + _FAVOUR_RULES + _EXEMPTION_RULES
_INJECTION_RULES += _ACCOUNT_RULES + MISSTATED_RULES + POWER_RULES + OTHERS_RULES + STAFF_RULES
_INJECTION_RULES += VOIDED_RULES + PRIVILEGED_RULES + COMPOSED_RULES

#: Three or more Unicode tag characters in a row (U+E0000-U+E007F).
_TAG_RUN = re.compile("[\U000e0000-\U000e007f]{3,}")


def _tag_characters(text: str) -> Iterator[tuple[int, int]]:
    """Runs of invisible Unicode tag characters: text smuggled past a human reader."""
    for m in _TAG_RUN.finditer(text):
        yield m.start(), m.end()


def find_injections(text: str, folded: _Folded) -> list[Detection]:
    """`detect_injection` on `text` and its folded copy with lookalike letters folded too; then
    on each hidden view of it (letters spaced out, base64, hex, rot13): a directive found there
    is `obfuscated_directive` over the whole run. Tag characters are looked for in the original,
    since folding drops them."""
    plain = deconfuse(folded.text)
    ruled = _examples_quoted(_apply(_INJECTION_RULES, plain), plain)
    if in_game_rules(plain):  # a role handed out to a game's players
        ruled = [s for s in ruled if s[2] != "role_change"]
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
        seen = _apply(_INJECTION_RULES, decoded)  # (the whole text again: its examples stay)
        if (_examples_quoted(seen, decoded) if view.whole else seen) or find_hijacks(decoded):
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
    """Whether the rules before hardening find an injection (`memctl bench detectors`' baseline)."""
    folded = _fold(text)
    return bool(_apply(_RULES_BEFORE_HARDENING, folded.text)) or any(_tag_characters(text))
