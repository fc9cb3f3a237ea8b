"""What the user says of themselves and their household (or an agent relays of them): lasting
facts about them, their family, where they live and when they can be found; and, of the same
shape, statements about someone else. Cues on folded text, as in `cues`, and their readers."""

from __future__ import annotations

import re

from governed_memory.memory.write.extraction.cues import _REL_EN, _THIRD_ZH, _rx, _w
from governed_memory.memory.write.extraction.whereabouts import WHERE_I_AM
from governed_memory.memory.write.normalize import normalize_timezone

_REL_ZH_FAMILY = (
    r"老公|老婆|丈夫|妻子|太太|爱人|媳妇|儿子|女儿|孩子|娃|宝宝|闺女|妈妈|老妈|母亲|妈|爸爸|老爸|父亲|爸"
    r"|父母|爸妈|爷爷|奶奶|外公|外婆|姥姥|姥爷|哥哥|姐姐|弟弟|妹妹|老人"
)

#: When the user can be found, said as a lasting circumstance ("I'm only home at weekends",
#: "我白天都不在家"): a delivery or a call is planned around it.
_AVAILABLE_EN = (
    r"(?:i'm|im|i am)\s+(?:only|never|not|rarely|hardly ever|usually not|mostly)\s+(?:ever\s+)?"
    r"(?:home|at home|in|around|reachable|available)\s+(?:at|on|during|in|before|after|over)\b"
    r"(?!.*\b(?:moment|now|until|tonight|tomorrow|next|this)\b)"
)
_AVAILABLE_ZH = r"(?:白天|晚上|工作日|周末|平日|上班时间)?(?:都|一般|基本)?不在家"
_AVAILABILITY = re.compile(
    rf"^{_AVAILABLE_EN}|^我(?:只有|只在|平时|一般|基本)?(?:白天|晚上|工作日|周末|平日|上班时间)?"
    r"(?:都|一般|基本)?(?:不)?在家"
)


def _availability(norm: str) -> bool:
    return bool(_AVAILABILITY.match(norm.strip()))


# Self-statements
_SELF_LEAD_ZH = (
    r"^(?:(?:你好|您好|哈喽|嗨|亲|hi|hello)\s*[～~!！,，]*\s*)?"
    r"(?:其实|另外|还有|对了|顺便说一下|顺便|而且|并且|补充一下|说真的|说实话|老实说|讲真)?\s*"
    # a topic said first ("颜色的话我一般偏好黑色")
    r"(?:[\u4e00-\u9fff]{1,4}的话\s*)?"
)
#: A thing named first, then the user's liking of it ("咖啡豆我喜欢中深烘的").
_TOPIC_LIKE_ZH = (
    # (not a favour asked: "帮我挑件冲锋衣")
    r"|^(?![\u4e00-\u9fff]{0,3}(?:帮|给|替|让|请|叫|和|跟)我)(?!今天|明天|今晚|这次|这回|这单|这个|那个|现在"
    r"|刚才|最近)[\u4e00-\u9fff]{1,4}我们?"
    r"(?:一般|平时|一直|向来|从来|比较|还是|就|都|也|只)*(?:(?:喜欢|爱|偏爱|偏好|不太喜欢|不喜欢|受不了"
    r"|挑(?!好|了|完|一|个|几|件|款|双|套|条|下)|选(?!好|了|完|一|个|几|件|款|双|套|条|下)|只认"
    r"|习惯(?:买|穿|用|拿|选))"
    r"[\u4e00-\u9fff]"
    r"|碰不了|不能碰|沾不了|不能沾|吃不了|喝不了|不(?:吃|喝|碰|沾)(?!饭|了|过|完|掉))"
)
#: What the user lacks, said as the whole clause ("我没有信用卡", "家里没有烤箱"): a lasting
#: fact a shop acts on; not what did not happen or is missing now ("没有收到", "没有时间").
_LACKS_ZH = (
    r"(?:没有|没(?!有))(?!收到|到|时间|空|办法|问题|想|说|看|找|用过|买|下单|付|注意|听|接|拿|签收|货|包裹|快递"
    r"|吃过|喝过|试过|见过|去过|穿过|玩过|拆|开封"
    r"|订单|消息|回复|通知|短信|电话|邮件|发票|退款|钱|零钱|印象|兴趣|必要|关系|别的|其他|什么|啥|事"
    r"|要求|意见|人|任何|了|过|在|被|给|跟|和|把|这|那|你|您|他|她|一|几|多|对"
    # an act the user did not do ("我没点取消啊", "我没申请"), a channel (a denial, not a fact)
    r"|点|取消|申请|做|弄|改|动|碰|操作|下|订|退|让|叫|请|同意|授权|确认|开通|微信|短信|邮箱|手机"
    r"|qq)"
    r"[\u4e00-\u9fff]{1,5}?(?<![啊呀吧呢吗嘛哈啦])[哈啊呀哦啦]?\s*$"
)
_SELF_ZH = re.compile(
    _SELF_LEAD_ZH + r"(?:我(?:本人|自己|这人|这个人)?|本人)"
    r"(?:现在|目前|一直|平时|平常|一般|通常|向来|从来|从小|也|还|都|其实|本身|更|反而|倒是"
    r"|基本上?|每天|比较|特别|很|非常|挺|蛮|超级|最|只|一个人)*"
    r"(?:是(?!说|不是|想|要|来|问|在(?!校|读|职)|否|因为|打算|第|刚|昨|今|前天|上次|这次|那|个意思|的)"
    # who the user is not, and what they have not ("我不是学生", "我没有养狗"): a lasting fact
    # a shop acts on as much as its opposite
    r"|不是(?!说|想|要|来|问|在|因为|故意|很|太|特别|非常|这|那|你|您|第|刚|个意思|的|本人"
    r"|\s*[0-9一二两三四五六七八九十])"
    r"|没(?:有)?(?:养|开车|车|孩子|小孩|宠物|结婚)|不养|不穿|不戴|" + _LACKS_ZH + r""
    # a way to pay no longer used ("我已经不用花呗了")
    r"|(?:已经)?不(?:再)?用(?:花呗|信用卡|支付宝|微信支付|银行卡|借记卡|京东白条|白条|云闪付)"
    # a condition named without a verb ("本人糖尿病"), a height ("我一米八五")
    r"|(?:有|患有?|得了?)?(?:糖尿病|高血压|高血糖|高血脂|痛风|哮喘|湿疹|贫血|甲减|甲亢|鼻炎|胃病)"
    r"|(?:身高)?(?:一米[四五六七八九]|1米[4-9]|1\.[4-9]\d?\s*米|1[4-9]\d\s*(?:cm|厘米|公分))"
    r"|素食者|素食主义者|素食(?![品店馆餐])|吃素的|喜欢(?!跟你|和你|与你|你(?!们家)|您)|爱吃|爱喝|爱看|爱|偏爱|偏好|热爱|不喜欢|不太喜欢|不怎么喜欢|不大喜欢|讨厌|受不了|怕|不爱|吃素|吃全素|吃纯素|不吃|只吃|不喝|只喝|不抽烟"
    r"|不吸烟|得(?:了)?(?:[^，,。？?]{1,6}?(?:病|症|炎)|高血压|高血糖|痛风|哮喘|湿疹|贫血|甲减|甲亢)"
    r"|(?:敏感|干|油|混合|中性)性?(?:肌|皮)|近视|远视|散光|色弱|色盲|红绿色盲"
    r"|(?:周末|每周|经常)?(?:都|会)?去(?:爬山|徒步|跑步|健身|游泳|钓鱼|露营|骑行|滑雪|打球|瑜伽)"
    r"|用的(?!是)"
    r"|不喝酒|不能吃|不能喝|忌口|戒|对.{1,12}过敏|只(?:买|用)(?!了|过|一|几|两|这|那)"
    # what the user buys as a habit ("我一般都买无糖的", "我倾向于选敏感肌可用的")
    r"|(?<=一般|平时|通常|一直|向来|基本|般都|时都|常都|直都|来都|本都)(?:买|用|选)"
    r"(?!了|过|一|几|两|这|那|的时候|什么|啥|不)|倾向于"
    # an allergy named before it ("我花生过敏"), not someone's ("我表哥海鲜过敏")
    r"|(?![\u4e00-\u9fff]{0,2}(?:哥|姐|弟|妹|叔|姨|舅|婶|姑|友|事|婆|公|爷|奶|妈|爸|儿|女))"
    r"(?:(?!能|不|会|要|想|做|测|查|去)[\u4e00-\u9fff]){0,6}过敏(?!测|检|原|试|吗|么|呢)|在读|读研|读博|上大学|上高中"
    r"|(?:买|用|网购)?[\u4e00-\u9fff]{0,3}?只认|住在|住(?!院)|生活在|在.{1,10}(?:工作|上班|上夜班|值夜班|住|生活"
    r"|读书|上学|读(?:大学|研|博|高中|初中))|在[\u4e00-\u9fff]{1,8}(?:省|市|区|县|镇)\s*$|来自|出生在|出生于|老家|做.{1,8}(?:工作|的)|从事|当|上夜班|上晚班|值夜班|夜班|倒班"
    r"|有(?!点|些|一点|问题|个问题|事|空|没有)|养了|养|习惯|穿|身高|体重|会说|只会|用的是|在用"
    r"|不会(?:开车|骑车|游泳|说|用智能手机)"
    # (away from home now is no lasting fact: "我现在不在家")
    rf"|(?<!现在)(?<!今天)(?<!这会儿)(?<!暂时){_AVAILABLE_ZH}"
    r"|.{0,6}不耐(?:受)?(?!烦|心)|怀孕|怀了|孕期|哺乳期|备孕|左撇子|右撇子|坐轮椅|(?:的)?(?:鞋码|尺码|脚码|腰围|胸围|血型|星座)"
    # the body a size or a product is chosen for ("我脚比较宽", "我皮肤偏干")
    r"|(?:脚|脚背|腿|腰|肩膀?|头|脸|皮肤|头发|发质|肤质)(?:比较|很|特别|偏|有点|超级|巨)?"
    r"(?:宽|窄|大|小|长|短|胖|瘦|粗|细|干|油|敏感|高)"
    # an injury or a weak joint a product is chosen around ("我手腕有伤拎不动重的")
    r"|(?:手腕|手|腰|膝盖|腿|脚踝|肩膀?|背|颈椎|腰椎|眼睛|视力)(?:上)?(?:有伤|受过伤|有旧伤|不好|不太好"
    r"|不大好|有毛病|动过手术)"
    # a business the user runs ("我开的是一家小奶茶店", "我开了个网店")
    r"|开(?:的是|了)?(?:一)?(?:家|个|间)[\u4e00-\u9fff]{0,6}?(?:店|铺|馆|厂|公司|工作室|民宿))"
    # said without a subject, as people do in a hurry: a habit, a size, the home's floor or
    # layout ("平时喜欢跑马拉松", "平时穿42码", "住在六楼没电梯", "我们家是小户型")
    r"|^(?:平时|平常|业余|周末)(?:都|也|会|比较|还)*(?:喜欢|爱|常|经常)\S"
    r"|^(?:平时|平常|一般|通常)(?:都)?穿\s*(?:[0-9]|[SMLXsmlx])"
    # a diet said without a subject at the start of a message ("不喝含糖饮料，…", "只吃清真的")
    r"|^(?:只是|就是|但|但是|不过)?(?:平时|平常|一般|从来|向来|基本)?(?:都)?(?:不吃|不喝|只吃|只喝)(?!(?:一|两|几|半)(?:口|点|下|次)|了|完|饭|东西|啥|什么)"
    r"[\u4e00-\u9fff]{2,}"
    # the size the user wears, garment first ("衣服我一直穿M码", "裤子穿28的",
    # "我买衣服一般都穿L码")
    r"|^我?买?(?:衣服|裤子|鞋子?|外套|裙子|上衣|T恤)(?:的话|这块)?我?(?:一般|一直|平时|通常|都|也)*"
    r"(?:穿|买|拿|选|要|是)\s*(?:(?:[0-9]|[SMLXsmlx])[0-9.]*\s*(?:码|号|的)"
    # or the fit ("我鞋子一般都穿宽楦的")
    r"|宽楦|窄楦|加宽|宽版|大码|加大码?|修身|宽松|偏大|偏小|大一码|小一码)"
    # the one brand the user buys ("我买护肤品只认雅诗兰黛", "猫粮我只认皇家的")
    r"|^我?(?:买|用)[\u4e00-\u9fff]{1,4}(?:只认|只买|只用|一直用|都用)"
    r"|^[\u4e00-\u9fff]{1,4}(?:的话)?我(?:们|家)?(?:一直|向来|从来|一般|平时|都)*(?:只认|只买|只用|只穿"
    r"|只戴|只吃|只喝"
    # the one kind the user takes, said as what it is ("咖啡豆我只要中深烘的"; not "只要…就")
    r"|只要(?=[^，,。就才都]{1,8}的(?:[，,。！!\s]|$)))" + _TOPIC_LIKE_ZH + r""
    # a body measured ("身高165体重50kg") or a job said as "本人护士"
    r"|^(?:我|本人)?(?:的)?(?:身高|体重)\s*(?:是|有)?\s*[0-9一二三四五六七八九]"
    r"|^本人(?:是)?[\u4e00-\u9fff]{0,4}?(?:护士|医生|老师|教师|学生|司机|程序员|设计师|厨师|律师|会计|工程师"
    r"|宝妈|孕妇|上班族|快递员|外卖员|销售|健身教练|运动员|大学生|研究生|退休)"
    r"|^(?:我们?|俺们?)?家?(?:住在?|家在)[一二三四五六七八九十0-9]+(?:楼|层)"
    r"|^(?:对了|另外|还有|顺便说一下|其实)?\s*(?:我们?|俺们?)?家(?:里)?是(?!不是)"
    # where the home is ("我家在成都")
    r"|^(?:我们?|俺们?)?家(?:就)?(?:在|住在?)(?![一二三四五六七八九十0-9]|哪|这|那)[\u4e00-\u9fff]{2,}"
    r"|^(?:我们?)?家(?:里)?[^，,。？?]{0,4}?(?:没有?电梯|有电梯)"
    # who lives at home ("家里就我一个人住", "我们家三口人")
    r"|^(?:我们?)?家(?:里)?(?:就|只有|一共)?(?:我)?(?:一个人|两个人|俩人|[一二两三四五六七八九]口人)"
    # what the household lacks or keeps none of ("家里没有烤箱", "我们家不养宠物")
    r"|^(?:我们?|俺们?)?家(?:里)?(?:一直|从来|压根|根本|都|也)*(?:不养|没养|" + _LACKS_ZH + r")"
    # what the household does not eat or drink ("我们家不吃猪肉 宗教原因")
    r"|^(?:我们?|俺们?)家(?:里)?(?:人)?(?:一直|从来|向来|平时|都|也|基本)*(?:不吃|不喝|不沾|不碰)"
    r"(?!饭|了|过|完|掉|东西|啥|什么)[\u4e00-\u9fff]"
    # a brand the user is a devoted fan of ("始祖鸟死忠粉一枚"), a colour they feel nothing for
    r"|^[\u4e00-\u9fff a-z'’-]{1,12}(?:死忠粉|铁粉|忠实粉丝|脑残粉)"
    r"|^我?对[\u4e00-\u9fff]{1,6}(?:无感|不感冒)"
)
_SELF_MY_ZH = re.compile(
    _SELF_LEAD_ZH + r"我的(?!订单|快递|包裹|退款|运单|物流)\S{1,10}?(?:是|为|叫)"
)
_SELF_EN = _rx(
    r"^(?:(?:hey|hi|hello|also|and|btw|by the way|actually|(?:just\s+)?fyi|fwiw|tbh|honestly"
    r"|for context|(?:ok(?:ay)?\s+)?so(?:\s+basically)?|basically"
    r"|(?:hey\s+)?(?:just\s+)?so\s+(?:you|u)\s+know|just\s+a\s+heads\s+up|heads\s+up"
    r"|oh|well|for the record|i\s+(?:just\s+)?(?:wanted|want)\s+to\s+(?:mention|say|let\s+you"
    r"\s+know)(?:\s+that)?)[, ]+)?"
    r"(?:(?:i'm|im|i am)\s+(?:usually\s+|normally\s+|typically\s+|generally\s+|always\s+"
    r"|definitely\s+|actually\s+|really\s+|now\s+|more\s+of\s+)?"
    r"(?:a|an)\s+(?!bit\b|little\b|lot\b|few\b)[a-z]"
    # who the user is not, what they have not ("I'm not a student", "I don't have a car")
    r"|(?:i'm|im|i am)\s+(?:not|no\s+longer)\s+(?:a|an)\s+(?!bit\b|little\b|lot\b|fan\b|big\b"
    r"|huge\b|bot\b|robot\b)[a-z]"
    r"|(?:(?:i|we)\s+|^)(?:don't|dont|do\s+not|no\s+longer)\s+(?:have|own)\s+(?:(?:a|an|any)\s+"
    r"(?=[a-z])|(?=kids|children|pets))(?:car|kids?"
    r"|children|pets?|dogs?|cats?|printer|smartphone|garden|driveway|tv|television|microwave|oven"
    r"|dishwasher|dryer|tumble\s+dryer|washing\s+machine|freezer|credit\s+card|landline|lift"
    r"|elevator|balcony|bathtub|yard)\b"
    # what the household lacks ("we've got no dishwasher", "I have no oven")
    r"|(?:i|we)(?:'ve|\s+have)?\s+got\s+no\s+[a-z]|(?:i|we)\s+have\s+no\s+(?!idea|clue|time|way"
    r"|choice|problem|issue|complaints?|questions?|reason|money|access|record|receipt|plans?|one"
    r"|interest|intention|need|memory|patience|signal|internet|power|update|news|info"
    r"|information|tracking|confirmation|response|reply)[a-z]"
    # where the user is not to be found ("I'm not on social media")
    r"|(?:i'm|im|i am)\s+not\s+on\s+(?:social\s+media|facebook|instagram|twitter|tiktok"
    r"|snapchat|linkedin)\b"
    # what the user cannot take ("I can't have caffeine", "I can't tolerate lactose")
    r"|i\s+(?:can't|cannot|can\s+not)\s+(?:have|tolerate|handle|digest)\s+(?!it\b|this\b|that\b"
    r"|them\b|you\b|the\b|my\b|a\b|an\b|any\b|anyone\b|someone\b|people\b)[a-z]"
    # a diet taken up, a household's size, a card no longer used ("I've gone vegan since
    # January", "We're a family of five", "I no longer use the Visa ending 4421")
    r"|(?:i've|ive|i\s+have)\s+(?:recently\s+|just\s+)?(?:gone|become|turned)\s+(?:fully\s+)?(?:vegan"
    r"|vegetarian|pescatarian|gluten[- ]free|dairy[- ]free|keto|teetotal|sober)\b"
    r"|(?:we're|we\s+are)\s+a\s+(?:family|household)\s+of\s+[a-z0-9]"
    r"|i\s+(?:no\s+longer|don't|do\s+not)\s+use\s+(?:the\s+|my\s+|a\s+)?(?:visa|mastercard|amex"
    r"|american\s+express|paypal|klarna|credit\s+card|debit\s+card|card)\b"
    # what the user cannot stand ("I can't stand polyester")
    r"|i\s+(?:really\s+)?(?:can't|cannot|can\s+not)\s+stand\s+(?!it\b|this\b|that\b|you\b|the\b|when\b|how\b|waiting\b)[a-z]"
    # what the user goes for, or is a fan of ("I always go for unscented", "big fan of Patagonia")
    r"|i\s+(?:(?:always|usually|normally|generally|tend\s+to)\s+)?(?:go\s+for|opt\s+for)\s+[a-z]"
    r"|(?:(?:i'm|im|i am)\s+(?:a\s+)?)?(?:big|huge|massive)\s+fan\s+of\s+(?!your\b|this\b|that\b"
    r"|the\s+way\b|how\b|fast\b|quick\b|free\b|waiting\b|delays?\b)[a-z]"
    r"|(?:big|huge|massive)\s+[a-z'’-]+(?:\s+[a-z'’-]+)?\s+fan\b"
    # or is no fan of, does not celebrate, or teaches ("not a fan of leather", "we don't
    # celebrate Christmas", "I teach primary school")
    r"|^(?:(?:honestly|tbh|ngl|also|and|but|so)[, ]+)?(?:(?:i'm|im|i am)\s+)?not\s+"
    r"(?:really\s+)?(?:a\s+|much\s+of\s+a\s+)?(?:big\s+)?fan\s+of\s+"
    r"(?!your\b|this\b|that\b|it\b|the\s+way\b|how\b|waiting\b|delays?\b|(?:phone\s+|video\s+)?calls?\b"
    r"|texts?\b|e-?mails?\b|sms\b|push\b|notifications?\b|messages?\b)[a-z]"
    r"|(?:i|we)\s+(?:don't|do\s+not)\s+celebrate\s+[a-z]|i\s+teach\s+(?:at\s+)?[a-z]"
    # what the user cannot do with, is into or not, or always picks ("I can't do dairy",
    # "not really into neon colours", "fragrance-free is always my pick")
    r"|i\s+(?:can't|cannot|don't|do\s+not)\s+do\s+(?!it\b|this\b|that\b|the\b|a\b|an\b|anything\b"
    r"|much\b|that\b|mondays?\b|tuesdays?\b|wednesdays?\b|thursdays?\b|fridays?\b|saturdays?\b"
    r"|sundays?\b|mornings?\b|evenings?\b|today\b|tomorrow\b|tonight\b|weekends?\b|next\b|this\b)[a-z]"
    r"|^(?:(?:i'm|im|i am)\s+(?:not\s+)?|not\s+)(?:really\s+|super\s+|so\s+|totally\s+)?into\s+"
    r"(?!it\b|this\b|that\b)[a-z]"
    r"|(?:is|are)\s+(?:always|usually)\s+my\s+(?:pick|choice)\b|(?:is|are)\s+my\s+go-?to\b"
    # what the household has none of ("no pets in our house")
    r"|^no\s+[a-z]+\s+in\s+(?:our|my)\s+(?:house|home|flat|apartment|household)\b"
    # a condition the user lives with ("I have celiac disease", "I have type 1 diabetes")
    r"|i\s*(?:\s+have|'ve\s+got|\s+have\s+got|'ve)\s+(?:[a-z0-9'’-]+\s+){0,2}?(?:disease|syndrome|"
    r"disorder|"
    r"allergy|allergies|intolerance|diabetes|asthma|arthritis|eczema|psoriasis|ibs|adhd|"
    r"migraines?|c(?:o)?eliac|epilepsy|[a-z]+itis)\b"
    # where they work now ("I'm back in the office full time", "I'm fully remote now")
    r"|(?:i'm|im|i am)\s+(?:back\s+)?(?:in\s+the\s+office|working\s+from\s+home|(?:fully\s+)?"
    r"remote|on\s+(?:night|day|early|late)\s+shifts?)\b"
    # (the subject dropped in a hurry: "Am vegan, so plz check the gummies")
    r"|(?:i'm|im|i am|^am)\s+(?:not\s+)?(?:(?:severely|very|highly|mildly|extremely|deathly"
    r"|seriously|really|quite|super|badly)\s+)?(?:vegetarian|vegan|pescatarian|allergic"
    r"|lactose[- ]intolerant"
    r"|gluten[- ](?:free|intolerant)|(?:type\s*[12i]+\s+)?diabetic|c(?:o)?eliac|asthmatic|epileptic"
    r"|an(?:a)?emic|dyslexic|autistic|pregnant|left[- ]handed|right[- ]handed|deaf|blind"
    r"|colou?r[- ]?blind|married|single|divorced|widowed|retired|self[- ]employed|unemployed"
    r"|muslim|christian|jewish|buddhist|hindu|catholic|kosher|halal|introverted|extroverted"
    r"|short[- ]sighted|near[- ]sighted|hard of hearing|disabled|based|petite|plus[- ]sized?)\b"
    # the device or the diet the user lives with ("I'm on a MacBook Air M2", "I'm on a
    # low-sodium diet")
    r"|(?:i'm|im|i am)\s+(?:on|using)\s+(?:a|an)\s+(?:macbook|iphone|ipad|pixel|galaxy|mac|pc"
    r"|chromebook|thinkpad|surface|android|windows|linux|kindle|[a-z-]+(?:\s+[a-z-]+)?\s+diet)\b"
    r"|(?:i'm|im|i am)\s+(?:from|originally from|living in"
    r"|\d{1,3}\b(?!\s*(?:hrs?|hours?|mins?|minutes?|days?|weeks?|h)\b)"
    r"|\d{1,3}\s*(?:ft|feet|foot|cm|kg|kgs|lbs?|'|’)(?![a-z]))"
    # a subject left out, as people write in a hurry ("Live in Anchorage", "based in Leeds")
    r"|(?:live|living|based)\s+in\s+[a-z]"
    r"|on\s+an?\s+[a-z-]+(?:\s+[a-z-]+)?\s+diet\b"
    # a weakness for a kind ("I'm a sucker for anything matcha flavoured")
    r"|(?:i'm|im|i\s+am)\s+(?:a\s+|such\s+a\s+)?(?:total\s+|real\s+|huge\s+|big\s+)?sucker\s+for\s+"
    r"(?!it\b|this\b|that\b|you\b)[a-z]"
    # the size worn, the subject left out ("size 9 in shoes, US sizing")
    r"|^(?:(?:i'm|im|i\s+am)\s+)?(?:a\s+)?(?:us\s+|uk\s+|eu\s+)?size\s+\d{1,2}(?:\.5)?\s+in\s+(?:shoes"
    r"|boots|trainers|sneakers|jeans|trousers|pants|dresses|tops|shirts)\b"
    # the fit the user needs ("i need tall sizes", "I always need wide-fit shoes")
    r"|i\s+(?:always\s+|usually\s+)?need\s+(?:tall|petite|plus|wide|extra[- ]wide|big\s+and\s+tall"
    r"|long|short|narrow|maternity)(?:[- ]fit)?\s+(?:sizes?|fits?|lengths?|shoes|trousers|pants"
    r"|jeans)\b"
    # how the user's name is written or said ("my name's spelled Caitlin, with a C")
    r"|my\s+(?:first\s+|last\s+|full\s+|family\s+|sur)?name's\s+(?:spelt|spelled|pronounced)\b"
    # a choice kept for the user alone ("dark colours only for me")
    r"|[a-z]+(?:\s+[a-z]+)?\s+only\s+for\s+me\b|only\s+[a-z-]+(?:\s+[a-z-]+)?\s+for\s+me\b"
    # a brand stuck to, the household's size ("sticking with New Balance from now on", "we're
    # a family of five")
    r"|(?:(?:i'm|im|i\s+am|i'll\s+be)\s+)?sticking\s+(?:with|to)\s+(?!it\b|this\b|that\b|you\b)[a-z]"
    r"|(?:gonna|going\s+to|i'll|i\s+will)\s+stick\s+(?:with|to)\s+(?!it\b|this\b|that\b|you\b)[a-z]"
    r"|(?:we're|we\s+are)\s+a\s+family\s+of\s+(?:\d|two|three|four|five|six|seven|eight)"
    r"|(?:have|got)\s+(?:a|an|one|two|three|four|five|twins|\d+)\s+(?:kids?|children|sons?|daughters?"
    r"|boys?|girls?|dogs?|cats?|pets?|grandkids|babies|toddlers?)\b"
    # when the user can be found: a circumstance a delivery or a call is planned around
    rf"|{_AVAILABLE_EN}"
    r"|i\s+(?:live|reside|work|grew up|was born|come from|moved to|have lived|speak)\b"
    r"|we\s+live\s+in\s+(?:a|an)\s+[a-z]"
    # skin or feet a product is chosen for ("I have really sensitive skin", "I have wide feet")
    r"|i\s+have\s+(?:(?:really|very|super|quite|extremely|pretty|naturally)\s+)?(?:sensitive|dry"
    r"|oily|combination|acne[- ]prone|fair|pale)\s+skin\b"
    r"|i\s+have\s+(?:(?:really|very|super|quite|extremely|pretty)\s+)?(?:wide|flat|narrow|small"
    r"|big|high[- ]arched)\s+feet\b"
    r"|(?:i|we)\s+(?:(?:tend\s+to|usually|always|generally|mostly|normally|basically"
    r"|pretty\s+much|mainly|typically)\s+)?(?:don't|dont"
    r"|do not|never|can't|cannot|only)\s+(?:eat|drink|smoke|use|wear|fly|drive|buy"
    r"|shop for|order|subscribe)\b"
    r"|i\s+always\s+(?:want|buy|order|choose|pick(?!\s+up))\b"
    r"|i\s+(?:(?:usually|always|normally|often|never|rarely|really|mostly|mainly|only)\s+)?(?:eat"
    r"|drink|like|love"
    r"|enjoy|prefer|hate|dislike|wear|own|shop|sleep|go to bed|wake up|get up|use|raise|grow|run"
    r"|drive|ride"
    r"|breed|ride|cycle|swim|hike|knit|sew|bake|collect|play|practi[cs]e|train|run\s+(?:a|an|my)"
    r"|manage\s+(?:a|an|my)"
    r"|keep\s+(?![a-z]+ing\b|on\b))\b"
    r"|(?:i|we)\s*(?:already\s+|also\s+)?(?:have|'ve)\s+(?:got\s+)?(?:a|an|two|three|four|five|twins"
    r"|\d+)\s+"
    r"(?!question|problem|issue|complaint|query|concern|order|package|refund)"
    r"|(?:my|our\s+(?=(?:dogs?|cats?|puppy|kitten|pets?|house|home|flat|apartment|kitchen|garden"
    r"|yard|living\s+room|bathroom|place|car|family)\b))"
    r"\s*(?!order|package|parcel|refund|payment|delivery|shipment|tracking)[a-z' ]{1,30}?\s+"
    r"(?:is|are)\b"
    # "my skin's super sensitive"
    r"|my\s+(?!(?:order|package|parcel|refund|payment|delivery|shipment|tracking|phone|mobile"
    r"|cell|laptop|computer|internet|wifi|wi-fi|app|account|card|inbox|email)\b)[a-z]+'s\s+"
    r"(?:super|very|really|quite|so|extremely|pretty|a\s+bit|always|naturally)\s+[a-z])"
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
#: What makes a move no statement about the user's home (a parcel moved, a question).
_SELF_BLOCK_MOVED = _rx(r"订单|快递|包裹|你们|您", _w(r"order|package|parcel|you|your|it"))
_THIRD_SUBJECT_ZH = re.compile(_SELF_LEAD_ZH + rf"(?P<who>{_THIRD_ZH})")
_THIRD_SUBJECT_EN = re.compile(
    rf"^(?P<who>(?:my|our)\s+(?:{_REL_EN})|he|she|they)\s+(?P<verb>[a-z']+)"
)


# A clause that goes on with what the statement before it said ("I have two kids, 4 and 7
# years old", "家里俩娃，老大6岁老二才2岁"): numbers, ages, sizes, without a subject of its own.
_CONTINUATION = _rx(
    r"^\s*(?:and\s+|both\s+|aged?\s+|(?:about|around|roughly|approximately|only|just)\s+|老大|老二"
    r"|老三|大的|小的|一个|分别)?"
    r"(?:[0-9０-９]|[一二两三四五六七八九十]+(?:岁|个|年))"
    # a second thought on what was just said, and the value it turns to ("我腰围是2尺2…不对，
    # 2尺3…算了还是2尺2", "I wear a 42, no wait, a 43")
    r"|^\s*(?:不对|算了|哦不|不不|等等|(?:no\s+)?wait|sorry|i\s+mean|or\s+rather|make\s+that)"
    r"[，,.!\s]*(?:不对|算了)?\s*$"
    r"|^\s*(?:算了|不对)?\s*(?:还是|应该是)\s*[0-9０-９]"
    r"|^\s*(?:i\s+mean\s+|make\s+that\s+|or\s+rather\s+)?an?\s+[0-9]"
    # the home's rooms, a habitual size ("客厅就十来平", "平时穿42码")
    r"|^\s*(?:客厅|卧室|厨房|卫生间|阳台|房间|书房)(?:就|只有|大概|才|差不多)?[一二三四五六七八九十0-9]"
    r"|^\s*(?:平时|平常|一般|通常)?(?:都)?穿\s*(?:[0-9]|[SMLXsmlx])"
    r"|^\s*(?:住在?|在)[一二三四五六七八九十0-9]+(?:楼|层)"
    # the home's size, a shift worked, a weak spot of the body ("房子就四十多平", "经常上夜班",
    # "嗓子不好")
    r"|^\s*(?:房子|家里|屋子|公寓)(?:就|只有|大概|才|差不多)?[一二三四五六七八九十0-9]"
    r"|^\s*(?:经常|平时|一般|每天|常年)(?:都|要)?(?:上夜班|值夜班|倒班|熬夜|出差|久站|久坐)"
    r"|^\s*(?:嗓子|胃|肠胃|腰|膝盖|颈椎|眼睛|睡眠)(?:一直|也|比较|有点|很|特别|挺)*(?:不好|不太好|很差|比较差"
    r"|敏感|不行)"
    r"|^\s*(?:家里|我家)?[^，,。？?]{0,4}?(?:没有?电梯|有电梯)(?:的|哦|哈|啊)?\s*$"
    # a pet's or a child's name, the fit the user takes ("叫豆豆", "偏宽松一点的版型")
    r"|^\s*(?:它|他|她)?(?:叫|名字叫)[\u4e00-\u9fff]{1,4}\s*$"
    r"|^\s*(?:喜欢|一般|都)?偏(?:宽松|修身|大|小|瘦|长|短)"
    r"|^\s*(?:and\s+)?(?:no|with\s+no|without\s+(?:an?\s+)?)\s*(?:elevator|lift|parking|driveway|garage"
    r"|garden|yard|balcony|doorman|concierge)\s*$"
    # an allergy said after the statement it belongs to ("宝宝刚八个月，牛奶蛋白过敏")
    r"|^\s*[^，,。？?吗]{0,8}(?:过敏|不耐受)\s*$"
    # the next child's age ("我儿子今年三岁，女儿刚满六个月")
    r"|^\s*(?:女儿|儿子|闺女|老大|老二|老三|小的|大的)(?:今年|现在|才|刚|已经)*满?"
    r"[一二两三四五六七八九十0-9]+(?:个)?(?:月|岁)"
    # a measure of the same body, or a "but" about it ("我鞋码42，不过脚背高脚比较宽",
    # "我一般穿M，胸围92左右"); a clause naming a thing of this conversation is no part of it
    r"|^\s*(?:不过|但是?|可是|只是|而且)?\s*(?:胸围|腰围|臀围|肩宽|身高|体重|脚背|脚|鞋码|尺码|头围)"
    r"(?!.*(?:这|那|你|您|吗|么|呢|\?))"
    # the same subject, said again with "also" ("我不吃香菜，也不太能吃辣"); a clause about
    # this conversation or a question is no part of it
    r"|^\s*(?:不吃|不喝|只吃|只喝)(?!(?:一|两|几|半)(?:口|点|下|次)|了|完|饭|东西|啥|什么)"
    r"[\u4e00-\u9fff]{2,}"
    # a budget, the brand of a thing just named, the one thing the home has instead
    # ("预算不太多", "小米的", "只有一个空气炸锅"); a skin condition had since ("had eczema …")
    r"|^\s*(?:预算|手头)(?:也|比较|都)?(?:不太多|不多|有限|不高|很紧|比较紧|紧张|紧)"
    r"|^\s*(?!这|那|你|您|我|他|她|谁|啥|什么|别|不)(?:(?!穿|买|用|要|是|吃|喝)[\u4e00-\u9fffa-z]){2,6}的\s*$"
    r"|^\s*(?:只有|就有|只剩)(?:一|两|个|台|只|把)"
    r"|^\s*(?:有点|有些|也|还|而且)?(?:近视|远视|散光)"
    # a weight after a height ("我一米六 九十斤")
    r"|^\s*(?:体重)?[一二三四五六七八九十百0-9]+(?:斤|公斤|kg)\s*$"
    # a second liking, or a limit on the first ("黑白灰也ok", "就是别太艳", "hate polyester",
    # "three kids under 10")
    r"|^\s*[\u4e00-\u9fffa-z]{1,6}也(?:ok|可以|行|还行|不错)\s*$"
    r"|^\s*(?:就是|但是?|只是)?(?:别|不要)太[\u4e00-\u9fff]{1,3}\s*$"
    r"|^\s*(?:and\s+|but\s+)?(?:hate|dislike|can't\s+stand|love|adore)\s+(?!it\b|this\b|that\b|you\b"
    r"|when\b|how\b|waiting\b)[a-z]+(?:\s+[a-z]+)?\s*$"
    r"|^\s*(?:\d|two|three|four|five|six)\s+(?:kids|children|boys|girls)\b(?!.*\?)"
    # what the ones just named are ("I have two dogs, both golden retrievers"), what a diet
    # allows ("我是素食者，蛋奶可以")
    r"|^\s*both\s+[a-z]+(?:\s+[a-z]+)?\s*$"
    r"|^\s*(?:但是?)?(?:蛋奶|鸡蛋|牛奶|奶制品|乳制品|鱼|海鲜|鸡肉|蛋)(?:都|也|还)?(?:可以|能吃|能喝|吃的|没问题)\s*$"
    r"|^\s*(?:and\s+)?(?:had|have\s+had|have|get|got)\s+(?:bad\s+|mild\s+|severe\s+)?(?:eczema"
    r"|psoriasis|acne|rosacea|dermatitis|hay\s+fever)\b"
    r"|^\s*(?:也|还|而且也?|并且也?)(?:不太|不|都|很|挺|比较|特别|一直)*(?:能|会|爱|喜欢|吃|喝|用|穿"
    r"|怕|对|是|有|住|在)(?!.*(?:这|那|你|您|吗|么|呢|帮|\?))",
    flags=re.I,
)

#: What a statement means for what is shown to the user, said after it ("我不喝咖啡的 别再给我推咖
#: 啡机了", "I don't drink alcohol, so pls stop recommending wine bundles"): one memory with it.
_NOT_SUGGESTED = re.compile(
    r"(?:别|不要|不用|甭|一律不要)(?:再)?(?:给我)?推(?:荐)?(?![送卸脱迟辞托诿销广])|就?别推了?"
    r"|(?<![a-z])(?:stop|quit|don'?t|do\s+not|no\s+need\s+to)\s+(?:keep\s+)?(?:suggest|recommend|show"
    r"|push)(?:ing)?(?:\s+me)?(?![a-z])"
)


#: What a relative's statement means for what is bought or sent for them, said after it ("my son
#: is sensitive to tags, so tagless stuff only for his orders", "我妈不会用手机支付 以后她那边下的
#: 单都走货到付款"): one memory with it.
_FOR_THEM = re.compile(
    r"(?<![a-z])(?:(?:for|on|to)\s+(?:his|her|their)\s+(?:orders|stuff|place|deliveries|parcels)"
    r"|when(?:ever)?\s+i\s+(?:order|buy|shop)\s+(?:for|from)?\s*(?:him|her|them))(?![a-z])"
    r"|(?:他|她)(?:的|那边(?:的|下的)?)(?:单|订单|东西|快递|件)|给(?:他|她)(?:买|寄)的"
)


def goes_on(norm: str, before: str = "") -> bool:
    """A clause that only goes on with the statement of the clause before it (`before`, its
    content folded): more of it (`_CONTINUATION`) or what it means for what is shown to the
    user (`_NOT_SUGGESTED`), or for what is bought for the relative it is about (`_FOR_THEM`);
    or, after a refusal of what is suggested, the user's reason for it ("不要给我推荐香菜味的零食，
    我真的受不了", "don't recommend me anything in pink, i hate it")."""
    if _CONTINUATION.match(norm) or _NOT_SUGGESTED.search(norm) or _FOR_THEM.search(norm):
        return True
    return bool(_NOT_SUGGESTED.search(before) and _REASON.match(norm))


#: A clause giving the reason for what the clause before refused: the user's own experience
#: or feeling, said in the first person or as a cause ("我穿了会痒", "since they irritate my
#: skin"); not a request of its own or a channel ("text me instead").
_REASON = re.compile(
    r"^\s*(?:因为|由于|毕竟|我(?!要|想要|需要|想问|问一?下|请|想咨询|的订单|的快递|的包裹)|真的|实在|太|穿了|用了|吃了)"
    r"|^\s*(?:since|because|cause|cuz|coz|as)\s"
    r"|^\s*(?:i|i'm|im|i've|ive|it|they|those|that)\s+(?!(?:want|need|would|'d|'ll|will|can|could)\b)"
    r"(?!.*\b(?:text|e-?mail|call|phone|message|whatsapp|wechat|sms)\b)"
)


#: A move the user made: where they live or work now, whenever they moved ("Moved to
#: Manchester last month", "现在已经搬到深圳了", "现在住深圳", "调到北京工作了"; a Chinese
#: clause often leaves its subject to the one before it).
_MOVED = re.compile(
    r"^(?:(?:i|we)\s+|(?:i|we)'ve\s+|(?:i|we)\s+have\s+)?(?:just\s+|recently\s+|finally\s+)?"
    r"(?:moved|relocated)\s+(?:to|over\s+to|into\s+(?:a|an|our|my|the))\s+[a-z]"
    r"|" + _SELF_LEAD_ZH + r"(?:我们?)?(?:现在|刚|最近|已经|前阵子|上个月)*搬(?:到|去|家到)了?"
    r"|" + _SELF_LEAD_ZH + r"(?:我们?)?(?:现在|目前|已经)+(?:住(?:在|到)?|定居(?:在)?)"
    r"[^\s，,。得的着过了]"
    r"|" + _SELF_LEAD_ZH + r"(?:我们?)?(?:现在|刚|最近|已经|前阵子|上个月)*(?:被)?"
    r"(?:调|派)(?:到|去)[^，,。]{1,10}(?:工作|上班)"
)


#: Who the user is, said as "… here" ("Single dad here", "Nurse here, I do night shifts"): a
#: customer, a first-timer or someone here to ask is no fact of theirs.
_SELF_HERE = re.compile(
    r"^(?:an?\s+)?(?!(?:customer|buyer|shopper|user|member|fan|first|long|loyal|regular|newbie"
    r"|just|only|me|i)\b)[a-z-]+(?:\s+[a-z-]+)?\s+(?:over\s+)?here\b(?!\s+(?:to|for|about|again|asking))"
)


#: A preface to what the user then says of themselves ("quick background so your recs make
#: sense: I'm pregnant", "my doctor said I should tell you: I'm allergic to penicillin").
_PREFACE = re.compile(r"^[^:：]{3,60}[:：]\s*(?=\S)")
#: What a statement is about, said before it ("for bags i prefer crossbody over backpacks").
_TOPIC_FIRST = re.compile(
    r"^(?:for|with|as\s+for|when\s+it\s+comes\s+to)\s+[a-z][a-z ]{1,20}?,?\s+(?=i\s)"
)


_NOTHING_AFTER = re.compile(r"\s*(?:这边|那边|住|生活|哈|啊|呢|哦|now)?\s*$")


def _here(s: str) -> bool:
    """Where the user is, said alone ("我在成都", "I'm in Edinburgh now", `whereabouts`): a fact
    of theirs when it names a place a zone is known for (not "我在开会", "I'm in a rush"); a stay
    ("这周我在上海出差") says more than the place, so it is not this."""
    m = WHERE_I_AM.match(s)
    if m is None or not _NOTHING_AFTER.match(s, m.end()):
        return False
    place = m.group("place") or m.group("moved") or m.group("zh")
    return place is not None and normalize_timezone(place.strip()) is not None


#: What the user is allergic to, said against what they are not ("Not peanuts — it's tree nuts
#: I'm allergic to"; "it" is no parcel here).
_ALLERGY_SET_RIGHT = re.compile(
    r"(?:not\s+[a-z][a-z -]{0,20}?\s*[—–,-]+\s*)?it's\s+[a-z][a-z -]{1,30}?\s+(?:that\s+)?(?:i'm|im"
    r"|i\s+am)\s+allergic\s+to\b"
)


def _self_statement(norm: str) -> bool:
    s = norm.strip()
    if _here(s):
        return True
    preface = _PREFACE.match(s)
    said = s[preface.end() :] if preface is not None else ""
    if re.match(r"(?:i\b|i'm|im\b|i've|we\b|we're|我|本人)", said) and _self_statement(said):
        return True
    topic = _TOPIC_FIRST.match(s)  # "for tea i only like loose leaf"
    if topic is not None and _self_statement(s[topic.end() :]):
        return True
    if s and len(s) <= 60 and _SELF_HERE.match(s):
        return True
    if s and len(s) <= 80 and _MOVED.match(s) and not _SELF_BLOCK_MOVED.search(s):
        return True  # when they moved ("last month") is no one-off: where they live now is
    if s and len(s) <= 80 and _ALLERGY_SET_RIGHT.match(s):
        return True
    if not s or len(s) > 80 or _SELF_BLOCK.search(s):
        return False
    return bool(_SELF_ZH.match(s) or _SELF_MY_ZH.match(s) or _SELF_EN.match(s))


_EN_VERB_AS_FIRST = {"is": "am", "'s": "am", "are": "am", "was": "was", "has": "have"}
_EN_VERB_AS_FIRST.update({"doesn't": "don't", "does": "do", "isn't": "am not"})


def _as_first_person(s: str, m: re.Match[str]) -> str:
    """`s` with the subject `m` matched said by the speaker ("she lives in Berlin" → "i live in
    Berlin"): the verb (group `verb`) in the first person."""
    verb = m.group("verb")
    first = _EN_VERB_AS_FIRST.get(verb, verb[:-1] if verb.endswith("s") else verb)
    if verb.endswith("ies"):
        first = verb[:-3] + "y"
    return "i " + first + s[m.end("verb") :]


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
    return _self_statement(_as_first_person(s, m2)) if m2 is not None else False
