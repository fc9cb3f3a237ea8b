"""Sensitive categories: health, religion, sexuality, politics, biometrics, precise location and
financial account data, stated or inferred, in Chinese and English."""

from __future__ import annotations

import re

from governed_memory.memory.write.detectors._text import (
    _B,
    _E,
    _FLAGS,
    Detection,
    _alt,
    _apply,
    _fold,
    _Folded,
    _merge_same_category,
    _Rule,
    _rules,
    _to_detections,
    _w,
    _window,
)

# --- health -------------------------------------------------------------------------------------

_ZH_CONDITIONS = _alt(
    "糖尿病", "高血压", "低血压", "高血脂", "冠心病", "心脏病", "心脏支架", "心梗", "心肌梗塞",
    "心肌梗死", "心衰", "心律失常", "脑梗", "脑中风", "中风", "脑溢血", "脑瘤", "白血病",
    "淋巴瘤", "肿瘤", "抑郁症", "抑郁障碍", "重度抑郁", "中度抑郁", "轻度抑郁", "产后抑郁",
    "焦虑症", "焦虑障碍", "惊恐障碍", "惊恐发作", "双相情感障碍", "双相障碍", "躁郁症",
    "精神分裂", "精神病", "精神疾病", "心理疾病", "心理问题", "自闭症", "孤独症", "多动症",
    "注意力缺陷", "阿斯伯格", "强迫症", "创伤后应激", "PTSD", "厌食症", "暴食症", "进食障碍",
    "失眠症", "老年痴呆", "阿尔茨海默", "帕金森", "癫痫", "羊癫疯", "哮喘", "慢阻肺", "肺结核",
    "结核病", "乙肝", "丙肝", "肝炎", "肝硬化", "艾滋", "HIV", "梅毒", "淋病", "尖锐湿疣",
    "生殖器疱疹", "性病", "尿毒症", "肾衰", "肾病", "透析", "红斑狼疮", "类风湿", "痛风",
    "甲亢", "甲减", "甲状腺结节", "甲状腺癌", "血友病", "地中海贫血", "白癜风", "银屑病",
    "牛皮癣", "不孕", "不育", "阳痿", "早泄", "勃起功能障碍", "多囊卵巢", "子宫肌瘤", "流产",
    "堕胎", "人流", "怀孕", "孕早期", "孕中期", "孕晚期", "孕期", "备孕", "试管婴儿", "产检",
    "坐月子", "剖腹产", "残疾", "残障", "截肢", "瘫痪", "偏瘫", "截瘫", "失明", "视障", "盲人",
    "聋哑", "听障", "助听器", "脑瘫", "唐氏综合征", "罕见病", "绝症", "化疗", "放疗", "靶向药",
    "靶向治疗", "免疫治疗", "胰岛素", "降压药", "降糖药", "抗抑郁药", "抗焦虑药", "安眠药",
    "精神科", "心理医生", "心理咨询", "心理治疗", "精神科医生", "住院", "出院", "动手术",
    "做手术", "做了手术", "手术后", "术后", "病历", "病史", "确诊", "被诊断", "诊断为",
    "诊断出", "诊断书", "诊断证明", "处方药", "戒毒", "戒酒", "酗酒", "酒瘾", "毒瘾", "药瘾",
    "过敏体质", "过敏性鼻炎", "过敏性哮喘", "过敏史", "体检报告", "血糖高", "血糖偏高",
    "血压高", "血压偏高", "自杀", "自残", "轻生", "抑郁", "癌",
)  # fmt: skip
_ZH_ALLERGENS = _alt(
    "青霉素", "头孢", "磺胺", "阿司匹林", "布洛芬", "药物", "药", "花生", "坚果", "海鲜", "虾",
    "蟹", "鱼", "牛奶", "乳糖", "鸡蛋", "小麦", "麸质", "大豆", "芒果", "花粉", "尘螨", "猫毛",
    "狗毛", "酒精", "乳胶", "芝麻", "桃子", "麻醉",
)  # fmt: skip
_EN_CONDITIONS = _alt(
    "diabetes", "diabetic", "insulin", "chemo", "chemotherapy", "radiotherapy",
    r"radiation\s+(?:therapy|treatment)", "dialysis", "hiv", r"hiv[- ]positive", "hepatitis",
    "epilepsy", "epileptic", "seizures", "schizophrenia", "schizophrenic", r"bipolar\s+disorder",
    "autism", "autistic", r"asperger'?s", "adhd", "ptsd", "anorexia", "anorexic", "bulimia",
    "bulimic", r"eating\s+disorder", "dementia", r"alzheimer'?s", r"parkinson'?s",
    r"multiple\s+sclerosis", r"cerebral\s+palsy", r"down\s+syndrome", r"cystic\s+fibrosis",
    "asthma", "asthmatic", "leukemia", "leukaemia", "lymphoma", "melanoma", "tumou?r",
    "carcinoma", "metastatic", "oncologist", "antidepressants?", "ssris?", "prozac", "zoloft",
    "lexapro", "xanax", "adderall", "ritalin", "metformin", "methadone", "suboxone",
    r"alcoholics\s+anonymous", r"narcotics\s+anonymous", r"aa\s+meetings?", r"na\s+meetings?",
    "rehab", r"(?:my|his|her|a)\s+(?:therapist|psychiatrist|psychologist|oncologist|"
    r"cardiologist|endocrinologist)", r"therapy\s+sessions?", "pregnant", "pregnancy",
    "miscarriage", "abortion", "ivf", r"fertility\s+(?:treatment|clinic|issues?)",
    "infertile", "infertility", "trimester", "prenatal", "postpartum",
    "herpes", "syphilis", "gonorrh?oea", "gonorrhea", "chlamydia", r"an?\s+(?:std|sti)",
    "stds", "stis", r"(?:std|sti)\s+test(?:ing)?", r"sexually\s+transmitted",
    r"(?:my|his|her|a)\s+disability", "disabilities", r"(?:i'?m|i\s+am|he'?s|she'?s)\s+disabled",
    r"disabled\s+(?:person|veteran|people|son|daughter|child|kid|mother|father|parent|husband|wife)",
    r"wheelchair(?![- ]accessible)", "amputee", "prosthetic", "paralyzed", "paralysed",
    r"hearing\s+aids?", r"legally\s+blind", r"visually\s+impaired", r"hard\s+of\s+hearing",
    r"(?:i'?m|i\s+am|he'?s|she'?s|is)\s+(?:profoundly\s+|partially\s+)?deaf",
    r"deaf\s+in\s+one\s+ear",
    r"heart\s+(?:attack|disease|condition|failure|surgery)", r"had\s+a\s+stroke", "hypertension",
    r"high\s+blood\s+pressure", r"kidney\s+(?:failure|disease|transplant|stones?)",
    r"organ\s+transplant", r"on\s+medication",
    r"(?:my|his|her)\s+(?:surgery|diagnosis|medication|meds|prescription|illness|disease|"
    r"disorder|chemo)",
    r"(?:having|had|after|before|recovering\s+from)\s+(?:my\s+|a\s+|an\s+)?(?:surgery|operation)",
    "hospitali[sz]ed", r"(?:i'?m|i\s+am|was|been)\s+in\s+(?:the\s+)?hospital",
    r"mental\s+(?:illness|health\s+(?:condition|issues?|problems?|crisis))",
    r"anxiety\s+(?:disorder|attacks?)", r"panic\s+(?:attacks?|disorder)",
    r"(?:clinical|severe|major|postpartum|chronic)\s+depression", r"clinically\s+depressed",
    r"suicidal", r"self[- ]harm", r"(?:cancer|tumou?r)\s+(?:treatment|patient|survivor|diagnosis)",
    r"(?:breast|lung|prostate|colon|skin|pancreatic|ovarian|cervical|brain|stomach|liver|"
    r"bone|blood|thyroid)\s+cancer", r"stage\s+(?:[1-4]|i{1,3}|iv)\s+\w*\s*cancer",
    r"allerg(?:ic|y|ies)\s+to\s+(?:penicillin|peanuts?|nuts|shellfish|seafood|latex|"
    r"aspirin|ibuprofen|sulfa|gluten|lactose|dairy|eggs?|soy|wheat|bees?|pollen|antibiotics|"
    r"(?:some\s+|certain\s+)?(?:medications?|drugs|medicine))",
    r"(?:food|drug|nut|peanut)\s+allerg(?:y|ies)",
    r"celiac|coeliac", "crohn'?s", r"type\s+[12]\s+diabetes",
)  # fmt: skip
_EN_CONDITION_OBJECTS = _alt(
    "depression", "anxiety", "ocd", "cancer", "aids", "lupus", "arthritis", "migraines?",
    "insomnia", "addiction", "alcoholism", r"crohn'?s(?:\s+disease)?", "colitis", "ibs",
    "endometriosis", "pcos", "fibromyalgia", "glaucoma", "cataracts?", "psoriasis", "eczema",
    "tuberculosis", r"long\s+covid", r"sleep\s+apnea", "bipolar", "schizophrenia", "diabetes",
    r"an?\s+(?:heart|kidney|liver|lung|thyroid|mental\s+health|chronic|autoimmune|medical|"
    r"neurological|genetic)\s+(?:condition|disease|disorder|illness)",
    r"(?:a\s+)?(?:chronic|terminal|rare|serious)\s+(?:disease|disorder|illness|condition)",
)  # fmt: skip
_EN_SUFFER = (
    r"(?:diagnosed\s+with|suffer(?:s|ed|ing)?\s+(?:from|with)|living\s+with|treated\s+for|"
    r"being\s+treated\s+for|battling|fighting|recovering\s+from|struggl(?:e|es|ed|ing)\s+with|"
    r"(?:i|he|she|we|they|my\s+\w+)\s+(?:have|has|had|'ve\s+got|got|developed)|i'?ve|i'?ve\s+got|"
    r"history\s+of|medication\s+for|meds\s+for|treatment\s+for)"
)


def _not_zh_figurative_health(text: str, m: re.Match[str]) -> bool:
    word = m.group(0)
    after = text[m.end() : m.end() + 4]
    before = _window(text, m.start(), 4)
    if word == "癌":
        return not (before.endswith(("防", "致")) or after.startswith(("险", "物质")))
    if word == "抑郁":
        # Bare 抑郁 only in a first-person state ("我有抑郁", "我抑郁了很久"), not "有点抑郁".
        return bool(re.search(r"(?:我|他|她)(?:有|得了|患了?|被诊断为?|一直|长期)?$", before)) and (
            not before.endswith(("有点", "点"))
        )
    if word in ("住院", "出院"):
        return not after.startswith(("部", "处"))
    return True


_HEALTH = [
    *_rules("health", _ZH_CONDITIONS, check=_not_zh_figurative_health),
    *_rules(
        "health",
        rf"对(?:{_ZH_ALLERGENS})(?:类|类的|制品|成分)?(?:严重)?过敏",
        r"(?:我|他|她|本人)(?:在|正在|每天|一直|长期)?(?:吃药|服药|用药|打针|打胰岛素)",
        r"(?:每天|天天|定期|每周|长期)(?:都)?(?:要|得|需要)?(?:打|吃|服用)(?:胰岛素|降压药|降糖药|药|抗抑郁药)",
        r"(?:戒断|康复中心|精神卫生中心|精神病院|肿瘤医院|安宁病房|(?<![a-z])ICU(?![a-z])|重症监护)",
        r"(?:我|他|她)(?:怀|有)(?:了)?(?:[一二三四五六七八九十两\d]+个月的)?(?:身孕|宝宝了)",
        r"孕\s*\d{1,2}\s*周",
        r"(?:做了?|动了?|接受了?|刚做完|要做)[^,。!?\n]{0,8}?(?:手术|搭桥|支架|移植|切除)",
        r"(?:心脏|冠脉)搭桥|器官移植|肾移植|肝移植|骨髓移植",
    ),
    *_rules("health", _w(_EN_CONDITIONS)),
    *_rules(
        "health",
        rf"{_B}{_EN_SUFFER}\s+(?:(?:severe|chronic|mild|bad|clinical|"
        rf"stage\s+\w+|type\s+[12])\s+)*{_EN_CONDITION_OBJECTS}{_E}",
    ),
]


# --- religion -----------------------------------------------------------------------------------

_RELIGION = [
    *_rules(
        "religion",
        r"(?<![短自确诚微通书来回写迷坚相置威电])信(?:奉|仰|了)?(?:佛(?!系)|佛教|基督|耶稣|主(?![页要动题体管编任意播人流])|"
        r"上帝|天主|真主|安拉|伊斯兰|道教|神(?![态情色经马])|印度教|犹太教|东正教|萨满|喇嘛教?|回教)",
        r"相信(?:上帝|真主|耶稣|佛祖|神的存在|有神)",
        r"(?:佛教|基督教?|天主教|伊斯兰教?|道教|印度教|犹太教|东正教|新教|摩门教|锡克教|回教)(?:徒|信徒)",
        r"穆斯林|基督徒|清真教徒|无神论者?|宗教信仰|我的信仰|信教|受洗|领洗|接受洗礼|做礼拜|"
        r"去教堂|上教堂|去清真寺|做弥撒|望弥撒|主日崇拜|主日学|查经班?|团契|做祷告|饭前祷告|"
        r"斋月|封斋|把斋|开斋节|古尔邦节|吃斋念佛|吃斋|念佛|拜佛|烧香拜佛|皈依|受戒|出家(?!门)|"
        r"居士|安息日|朝觐|只吃清真|要清真的|吃清真|犹太人|礼拜五(?:要)?去清真寺",
        r"(?:我|他|她|我们)[^,。!?\n]{0,6}?祷告",
    ),
    *_rules(
        "religion",
        rf"{_B}(?:i'?m|i\s+am|we\s+are|we'?re|as\s+an?|being|he'?s|she'?s|he\s+is|she\s+is|"
        r"raised|born)\s+(?:an?\s+)?(?:(?:devout|practicing|practising|observant|born[- ]again|"
        r"lapsed|proud|orthodox|reform|conservative|strict)\s+)?(?:muslim|christian|catholic|"
        r"buddhist|hindu|jewish|jew|sikh|mormon|protestant|baptist|methodist|lutheran|"
        r"evangelical|anglican|presbyterian|pentecostal|quaker|jain|taoist|atheist|agnostic|"
        r"jehovah'?s\s+witness|shia|sunni|shiite|pagan|wiccan|scientologist|baha'?i)" + _E,
        _w(
            r"(?:go|going|went|goes|attend|attending)\s+(?:to\s+)?(?:church|mass|mosque|synagogue|"
            r"bible\s+study|sunday\s+school|confession|friday\s+prayers?|sunday\s+service)"
        ),
        _w(
            r"(?:pray|praying|prayed|prays)\s+(?:five\s+times|every\s+(?:day|morning|night)|daily|"
            r"to\s+(?:allah|god|jesus|buddha))"
        ),
        _w(
            r"ramadan|yom\s+kippur|passover\s+seder|bar\s+mitzvah|bat\s+mitzvah|(?:for|during)\s+lent"
        ),
        _w(
            r"(?:i|we)\s+(?:only\s+)?(?:eat|keep|follow|observe)\s+(?:a\s+)?(?:strict\s+)?(?:halal|kosher)"
        ),
        _w(r"(?:halal|kosher)\s+only|only\s+(?:eat\s+)?(?:halal|kosher)"),
        _w(r"(?:observe|keep)\s+(?:the\s+)?(?:sabbath|shabbat)"),
        _w(
            r"(?:my|our)\s+(?:faith(?!\s+in\s+(?!god|allah|jesus|christ|buddha))|religion|"
            r"religious\s+beliefs?|pastor|priest|rabbi|imam|church|mosque|synagogue|parish|"
            r"congregation|guru)"
        ),
        _w(
            r"baptized|baptised|converted\s+to\s+(?:islam|christianity|judaism|catholicism|"
            r"buddhism|hinduism)|born[- ]again\s+christian"
        ),
    ),
]

# --- sexuality ----------------------------------------------------------------------------------

_SEXUALITY = [
    *_rules(
        "sexuality",
        r"同性恋|双性恋|异性恋|泛性恋|无性恋|性取向|性向|出柜|男同性恋|女同性恋|"
        r"(?:我|他|她)是(?:个|一个)?(?:男同|女同|拉拉|gay|弯的|LGBT)|蕾丝边|跨性别|变性人|"
        r"变性手术|性少数|LGBT\w*|同志(?:圈|酒吧|群体|身份)|(?:我|他|她)(?:的)?同性(?:伴侣|爱人|恋人)",
        # A stated gender and a partner of the same gender.
        r"我(?:是|作为)(?:一个|个)?(?:男生|男的|男人|男性|男孩)[^。!?\n]{0,15}?(?:男朋友|男友|老公|丈夫)",
        r"我(?:是|作为)(?:一个|个)?(?:女生|女的|女人|女性|女孩)[^。!?\n]{0,15}?(?:女朋友|女友|老婆|妻子)",
        r"(?:男朋友|男友|老公|丈夫)(?:和我|跟我)?(?:都是|也是)(?:男|男生|男的|男人)",
        r"(?:女朋友|女友|老婆|妻子)(?:和我|跟我)?(?:都是|也是)(?:女|女生|女的|女人)",
        r"我(?:和|跟)(?:我的?)?(?:男朋友|男友|老公|丈夫)都是(?:男|男生|男的|男人)",
        r"我(?:和|跟)(?:我的?)?(?:女朋友|女友|老婆|妻子)都是(?:女|女生|女的|女人)",
    ),
    *_rules(
        "sexuality",
        _w(
            r"gay|lesbian|bisexual|bi-sexual|pansexual|asexual|homosexual|heterosexual|queer|"
            r"transgender|non-?binary|genderqueer|genderfluid|lgbt\w*|sexual\s+orientation|"
            r"trans\s+(?:woman|man|person|kid)|same[- ]sex\s+(?:partner|spouse|marriage|"
            r"relationship|couple)"
        ),
        _w(r"(?:came|coming|come)\s+out\s+(?:as|to)"),
        # A stated gender and a partner of the same gender.
        _w(r"i'?m\s+a\s+(?:man|guy|male|boy)[^.!?\n]{0,30}?my\s+(?:husband|boyfriend)"),
        _w(r"i'?m\s+a\s+(?:woman|girl|female|lady)[^.!?\n]{0,30}?my\s+(?:wife|girlfriend)"),
        _w(r"my\s+(?:husband|boyfriend)\s+and\s+i\s+are\s+both\s+(?:men|guys|male)"),
        _w(r"my\s+(?:wife|girlfriend)\s+and\s+i\s+are\s+both\s+(?:women|girls|female)"),
        _w(r"(?:i'?m|i\s+am|he'?s|she'?s)\s+(?:bi|trans)(?![\-/])"),
    ),
]


# --- politics -----------------------------------------------------------------------------------

_EN_PARTIES = (
    r"(?:republican|democrat|democratic|labour|labor|tory|tories|conservative|liberal|green|"
    r"libertarian|socialist|gop|reform|snp|lib\s+dem|communist|ukip|maga)"
)
_POLITICS = [
    *_rules(
        "politics",
        r"共产党员|中共党员|预备党员|党员|入党|退党|党籍|党龄|政治面貌|民主党派|无党派|"
        r"(?:美国)?民主党人?|共和党人?|国民党|民进党|台独|港独|藏独|疆独|法轮功|政治立场|"
        r"政治倾向|政治观点|政见|左派|右派|自由派|保守派|建制派|共青团员|"
        r"投票(?:给|支持)|投了[^\s,。]{1,10}?一票|"
        r"支持(?:特朗普|川普|拜登|哈里斯|民主党|共和党|国民党|民进党|工党|保守党)|"
        r"参加(?:了|过)?(?:游行|示威|抗议|集会|维权)|上访",
    ),
    *_rules(
        "politics",
        _w(
            rf"(?:always|usually|never|i|we)\s+(?:vote|voted|votes)\s+(?:for\s+(?:the\s+)?)?{_EN_PARTIES}s?"
        ),
        _w(
            r"(?:i|we)\s+voted\s+(?:for\s+)?(?:trump|biden|harris|obama|clinton|sanders|brexit|leave|remain)"
        ),
        _w(
            r"(?:i'?m|i\s+am|i'?ve\s+always\s+been|we\s+are|we'?re|he'?s|she'?s)\s+(?:an?\s+)?"
            r"(?:(?:lifelong|registered|proud|staunch|die-?hard|committed|card-carrying)\s+)?"
            r"(?:republican|democrat|tory|socialist|communist|libertarian|marxist|anarchist|"
            r"fascist|trump\s+supporter|labour\s+(?:supporter|voter|member)|maga)"
        ),
        _w(
            r"(?:i'?m|i\s+am)\s+(?:an?\s+)?(?:(?:lifelong|registered|proud|staunch|die-?hard|"
            r"committed|politically)\s+)?(?:conservative|liberal|progressive|"
            r"left-wing|right-wing|leftist)(?:\s+voter)?(?=\s*(?:[.!,;]|$|and\b))"
        ),
        _w(r"(?:i'?m\s+a\s+)?politically\s+(?:conservative|liberal|progressive|left|right)"),
        _w(rf"(?:member\s+of|belong\s+to|joined)\s+the\s+{_EN_PARTIES}\s+party"),
        _w(rf"{_EN_PARTIES}\s+party\s+member(?:ship)?|party\s+membership"),
        _w(r"my\s+political\s+(?:views|beliefs|affiliation|leanings|party|opinions?)"),
        _w(r"pro-?life|pro-?choice"),
        _w(
            r"(?:attended|joined|went\s+to|marched\s+in|at)\s+(?:a|the)\s+(?:\w+\s+)?(?:protest|demonstration)"
        ),
        _w(r"(?:political|protest|campaign|trump|election|pro-\w+|anti-\w+)\s+rally"),
    ),
]


# --- biometrics ---------------------------------------------------------------------------------

_BIOMETRICS = [
    *_rules(
        "biometrics",
        r"(?:我的|本人的?|他的|她的|用户的?)(?:指纹|掌纹|虹膜|视网膜|声纹|人脸|DNA|基因)"
        r"(?!(?:解锁|识别|锁|传感器|模块|支付|登录|打卡|功能|开锁|门锁|坏|失灵|不灵|用不了|没反应|"
        r"不好用|不能用|录不|总是|老是|按|设置))",
        r"(?:指纹|掌纹|虹膜|视网膜|声纹|人脸|面部|脸部|面容|步态|静脉)(?:数据|信息|模板|特征|"
        r"图像|照片|扫描件?|样本|编码|哈希)",
        r"(?:录入|采集|提供|上传|发送|发给你|给你)(?:了)?(?:我的)?(?:指纹|虹膜|声纹|掌纹|人脸照片)",
        r"基因(?:检测|测序)(?:报告|结果)|基因数据|DNA(?:检测|测试|鉴定)?(?:报告|结果|数据)",
    ),
    *_rules(
        "biometrics",
        _w(
            r"(?:my|his|her|user'?s)\s+(?:fingerprints?|thumbprints?|palm\s*prints?|iris|retina|"
            r"voice\s*prints?|face\s*prints?|dna|genome|biometrics?)"
        )
        + r"(?!\s+(?:scanner|sensor|reader|unlock|login|log-in|lock|button|doesn'?t|does\s+not|"
        r"isn'?t|is\s+not|won'?t|stopped|not\s+working|keeps|reader))",
        _w(
            r"(?:fingerprint|thumbprint|iris|retina|retinal|face|facial|palm|vein|gait)\s*"
            r"(?:id\s+)?(?:scans?|data|templates?|images?|samples?|geometry|hash(?:es)?|prints?)"
        ),
        _w(r"face\s*id\s+(?:scan|data|template|image)|facial\s+recognition\s+data"),
        _w(r"voice\s*prints?|voiceprints?|voice\s+(?:sample|biometrics?)"),
        _w(r"biometric\s+(?:data|information|identifiers?|template|profile|scan|sample)"),
        _w(
            r"dna\s+(?:test\s+)?(?:results?|sample|profile|data|report)|23andme|ancestry\s*dna|"
            r"genetic\s+(?:data|profile|test(?:ing)?\s+results?|report)"
        ),
    ),
]


# --- precise location ---------------------------------------------------------------------------

_ZH_NUM = r"(?:\d{1,5}(?:-\d{1,5})?|[一二三四五六七八九十百零〇两]{1,6})"
_ZH_UNIT = rf"(?:\s*{_ZH_NUM}\s*(?:号楼|栋|幢|座|单元|楼|层|室|号|户|房))"
_EN_STREET = (
    r"(?i:street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|court|ct|place|pl|way|"
    r"terrace|crescent|close|square|sq|parkway|pkwy|highway|hwy|circle|cir|trail|row|mews|"
    r"gardens|alley|strasse|straße)"
)
_BUSINESS_PLACE = re.compile(
    r"商家|店铺|门店|仓库|退货地址|退货到|寄回|售后|公司地址|总部|营业厅|网点|快递点|自提点|驿站|"
    r"柜台|专柜|办事处|store|shop|warehouse|return\s+(?:it\s+)?(?:address|to)|office|headquarters|"
    r"\bhq\b|branch|depot|pick-?up\s+point|locker|outlet",
    re.IGNORECASE,
)


def _personal_place(text: str, m: re.Match[str]) -> bool:
    """A merchant's, warehouse's or return address is business data, not the person's location."""
    return _BUSINESS_PLACE.search(_window(text, m.start(), 24)) is None


_PRECISE_LOCATION = [
    *_rules(
        "precise_location",
        rf"[\u4e00-\u9fff]{{0,6}}(?:路|街|大街|大道|巷|弄|胡同)\s*{_ZH_NUM}\s*(?:号|號|弄){_ZH_UNIT}*",
        rf"{_ZH_NUM}\s*(?:号楼|栋|幢|座)\s*{_ZH_NUM}\s*(?:单元)\s*{_ZH_NUM}\s*(?:室|号|户)?",
        r"\d{1,2}\s*单元\s*\d{3,4}(?:\s*(?:室|号|户))?",
        r"\d{1,3}\s*(?:号楼|栋|幢)\s*\d{3,4}\s*(?:室|号|户)?",
        rf"[\u4e00-\u9fff]{{2,10}}(?:小区|花园|公寓|家园|苑|大厦|新村|社区|广场)\s*\d{{1,3}}\s*"
        rf"(?:号楼|栋|幢|座|期){_ZH_UNIT}*",
        r"\d{3,4}\s*(?:房间|号房)|房间号?\s*(?:是|为|:)?\s*\d{3,4}(?!\d)",
        check=_personal_place,
    ),
    *_rules(
        "precise_location",
        rf"(?<![\w])\d{{1,6}}[A-Za-z]?\s+(?:[A-Z][A-Za-z'.\-]*\s+){{1,4}}{_EN_STREET}\.?(?![A-Za-z])",
        flags=0,
        check=_personal_place,
    ),
    *_rules(
        "precise_location",
        rf"{_B}(?:(?:my|home|shipping|delivery|billing|mailing|street|our|new)\s+address\s*"
        r"(?:is|:|=|was)|(?:i|we)\s+(?:live|lives|reside|stay)\s+at|located\s+at|"
        r"(?:ship|deliver|send)\s+(?:it|them|everything|my\s+orders?)\s+to)\s*"
        r"\d{1,6}[a-z]?\s+[a-z][^\n.,;]{2,60}",
        _w(
            r"(?:(?:i|we)\s+(?:live|stay)|i'?m\s+staying|i\s+am\s+staying|we'?re\s+staying)\s+"
            r"(?:in|at)\s+(?:apt|apartment|"
            r"unit|suite|flat|room)\s*#?\s*\d+[a-z]?"
        ),
        r"(?:坐标|经纬度|定位|位置|GPS|location|coordinates?|lat(?:itude)?|位于)[^\n]{0,20}?"
        r"-?\d{1,2}\.\d{3,}\s*[°]?\s*[NS]?\s*[,，/ ]\s*-?\d{1,3}\.\d{3,}",
        r"\d{1,2}\.\d{3,}\s*°?\s*[NS]\s*[,， ]\s*\d{1,3}\.\d{3,}\s*°?\s*[EW]",
        check=_personal_place,
    ),
]


# --- financial account --------------------------------------------------------------------------

_IBAN = re.compile(
    r"(?<![A-Za-z0-9])[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){2,7}(?:\s?[A-Z0-9]{1,4})?(?![A-Za-z0-9])"
)
_IBAN_LABEL = re.compile(r"iban", re.IGNORECASE)


def _iban_ok(text: str, m: re.Match[str]) -> bool:
    compact = m.group(0).replace(" ", "")
    if not 15 <= len(compact) <= 34:
        return False
    rearranged = compact[4:] + compact[:4]
    number = "".join(str(int(c, 36)) for c in rearranged)
    labelled = _IBAN_LABEL.search(_window(text, m.start(), 20)) is not None
    return bool(int(number) % 97 == 1) or labelled


def _has_digits(text: str, m: re.Match[str]) -> bool:
    value: str = m.group("val")
    return sum(c.isdigit() for c in value) >= 4


_BANK_CONTEXT = re.compile(
    r"bank|checking|savings|routing|iban|swift|bic|sort\s*code|wire|deposit|ach|credit\s+union|"
    r"brokerage|broker|银行|开户",
    re.IGNORECASE,
)


def _bank_account(text: str, m: re.Match[str]) -> bool:
    """A bare "account number" is a bank account only beside a bank word: a shop's account
    number is not financial data."""
    around = _window(text, m.start(), 60) + text[m.end() : m.end() + 60]
    return _has_digits(text, m) and _BANK_CONTEXT.search(around) is not None


_FIN_VALUE = r"(?P<val>\d[\d \-]{4,30}\d|\d{4,}\s*(?:\.{2,}|\*+|x{2,}|X{2,}))"
_FINANCIAL = [
    *_rules(
        "financial_account",
        r"(?:(?:银行|储蓄|借记|信用|工资|对公|公司|个人|收款|开户|基金|证券|股票|理财|汇款|转账)"
        r"(?:卡|账|帐)(?:号|户)(?:号码?)?|(?:银行)?卡号(?:码)?|(?:银行|收款|汇款|转账)账号)"
        rf"[^\n。,!?]{{0,6}}?(?:是|为|:|=|\s)\s*{_FIN_VALUE}",
        r"(?:信用卡|银行卡|储蓄卡|借记卡|工资卡)[^\n。,!?]{0,6}?(?:是|为|:|=|\s)\s*"
        r"\d[\d \-]{10,30}\d",
        r"开户(?:行|银行)\s*(?:是|为|:)\s*[\u4e00-\u9fff]{2,20}(?:银行|信用社)",
        r"(?:欠(?:了)?(?:银行|信用卡|网贷|花呗|借呗|白条|贷款|外债)|负债|欠债|外债)[^\n。,]{0,6}?"
        r"\d+(?:\.\d+)?\s*(?:万|千|元|块)|(?:信用卡|网贷|贷款|房贷|车贷|花呗|借呗|白条)(?:已经|都)?"
        r"逾期|征信(?:不好|有问题|花了|黑了|有污点|黑名单|有逾期)|资不抵债|被列为失信|申请(?:了)?破产",
    ),
    *_rules(
        "financial_account",
        rf"{_B}routing\s*(?:number|no\.?|#)?\s*(?:is|:|=)?\s*\d{{9}}{_E}",
        rf"{_B}sort\s*code\s*(?:is|:|=)?\s*\d{{2}}[- ]?\d{{2}}[- ]?\d{{2}}{_E}",
        _w(
            r"my\s+credit\s+score\s+is\s+\d{3}|(?:i'?m|i\s+am|we\s+are)\s+(?:in\s+(?:serious\s+)?debt|"
            r"bankrupt|filing\s+for\s+bankruptcy)|(?:declared|filed\s+for)\s+bankruptcy"
        ),
    ),
    _Rule(
        "financial_account",
        re.compile(
            rf"{_B}(?:account|acct|a/c)\s*(?:number|no\.?|#|num)?\s*(?:is|:|=)?\s*" + _FIN_VALUE,
            _FLAGS,
        ),
        _bank_account,
    ),
    *_rules(
        "financial_account",
        rf"{_B}(?:bank|checking|savings|brokerage|investment|retirement|401k|ira|current)\s+"
        r"(?:account|acct|a/c)\s*(?:number|no\.?|#|num)?\s*(?:is|:|=)?\s*" + _FIN_VALUE,
        rf"{_B}(?:credit|debit|bank)\s+card\s*(?:number|no\.?|#)?\s*(?:is|:|=)?\s*" + _FIN_VALUE,
        rf"{_B}(?:my|our|the)\s+(?:bank|checking|savings|brokerage)\s+account\s+(?:is\s+|number\s+)?"
        + _FIN_VALUE,
        check=_has_digits,
    ),
    _Rule("financial_account", _IBAN, _iban_ok),
]

_SENSITIVE_RULES: tuple[_Rule, ...] = (
    *_HEALTH,
    *_RELIGION,
    *_SEXUALITY,
    *_POLITICS,
    *_BIOMETRICS,
    *_PRECISE_LOCATION,
    *_FINANCIAL,
)


def find_sensitive(folded: _Folded) -> list[Detection]:
    """`detect_sensitive` on an already folded text."""
    spans = _merge_same_category(_apply(_SENSITIVE_RULES, folded.text))
    return _to_detections(folded, "sensitive_category", spans)


def detect_sensitive(text: str) -> list[Detection]:
    """Health, religion, sexuality, politics, biometrics, precise location and financial account
    data, stated or inferred (reason "sensitive_category")."""
    return find_sensitive(_fold(text))
