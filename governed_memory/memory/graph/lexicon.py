"""The words the extractor knows: kin and role words in English and Chinese (each with its
English role), months, days and titles, the words that open sentences and are no names, jieba's
tags for names, surnames, forms of address and titles, organisation suffixes."""

from __future__ import annotations


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_ROLES_EN = {
    "sister": "sister",
    "brother": "brother",
    "mother": "mother",
    "mom": "mother",
    "mum": "mother",
    "father": "father",
    "dad": "father",
    "son": "son",
    "daughter": "daughter",
    "wife": "wife",
    "husband": "husband",
    "partner": "partner",
    "girlfriend": "girlfriend",
    "boyfriend": "boyfriend",
    "fiance": "fiance",
    "fiancee": "fiance",
    "fiancé": "fiance",
    "fiancée": "fiance",
    "friend": "friend",
    "best friend": "friend",
    "colleague": "colleague",
    "coworker": "colleague",
    "co-worker": "colleague",
    "boss": "boss",
    "manager": "boss",
    "cousin": "cousin",
    "aunt": "aunt",
    "uncle": "uncle",
    "grandmother": "grandmother",
    "grandma": "grandmother",
    "grandfather": "grandfather",
    "grandpa": "grandfather",
    "grandson": "grandson",
    "granddaughter": "granddaughter",
    "niece": "niece",
    "nephew": "nephew",
    "roommate": "roommate",
    "flatmate": "roommate",
    "neighbor": "neighbor",
    "neighbour": "neighbor",
    "dog": "dog",
    "puppy": "dog",
    "cat": "cat",
    "kitten": "cat",
    "pet": "pet",
    "kid": "child",
    "child": "child",
    "baby": "child",
    "teacher": "teacher",
    "landlord": "landlord",
    "landlady": "landlord",
    "assistant": "assistant",
    "mother-in-law": "mother-in-law",
    "father-in-law": "father-in-law",
    "sister-in-law": "sister-in-law",
    "brother-in-law": "brother-in-law",
    "son-in-law": "son-in-law",
    "daughter-in-law": "daughter-in-law",
    "stepson": "son",
    "stepdaughter": "daughter",
    "twin": "twin",
    "kids": "child",
    "children": "child",
    "sons": "son",
    "daughters": "daughter",
    "parents": "parent",
    "grandkids": "grandchild",
    "grandchildren": "grandchild",
    "classmate": "classmate",
}

_ROLES_ZH = {
    "儿子": "son",
    "女儿": "daughter",
    "姐姐": "sister",
    "妹妹": "sister",
    "哥哥": "brother",
    "弟弟": "brother",
    "妈妈": "mother",
    "母亲": "mother",
    "老妈": "mother",
    "爸爸": "father",
    "父亲": "father",
    "老爸": "father",
    "老公": "husband",
    "丈夫": "husband",
    "妻子": "wife",
    "老婆": "wife",
    "太太": "wife",
    "爱人": "partner",
    "爷爷": "grandfather",
    "外公": "grandfather",
    "姥爷": "grandfather",
    "奶奶": "grandmother",
    "外婆": "grandmother",
    "姥姥": "grandmother",
    "表哥": "cousin",
    "表姐": "cousin",
    "表妹": "cousin",
    "表弟": "cousin",
    "堂哥": "cousin",
    "堂姐": "cousin",
    "堂妹": "cousin",
    "堂弟": "cousin",
    "叔叔": "uncle",
    "舅舅": "uncle",
    "伯伯": "uncle",
    "姑姑": "aunt",
    "姨妈": "aunt",
    "舅妈": "aunt",
    "婶婶": "aunt",
    "婆婆": "mother-in-law",
    "岳母": "mother-in-law",
    "丈母娘": "mother-in-law",
    "公公": "father-in-law",
    "岳父": "father-in-law",
    "女朋友": "girlfriend",
    "女友": "girlfriend",
    "男朋友": "boyfriend",
    "男友": "boyfriend",
    "朋友": "friend",
    "闺蜜": "friend",
    "好友": "friend",
    "同事": "colleague",
    "老板": "boss",
    "领导": "boss",
    "上司": "boss",
    "室友": "roommate",
    "邻居": "neighbor",
    "同学": "classmate",
    "老师": "teacher",
    "孙子": "grandson",
    "孙女": "granddaughter",
    "侄子": "nephew",
    "外甥": "nephew",
    "侄女": "niece",
    "外甥女": "niece",
    "儿媳": "daughter-in-law",
    "女婿": "son-in-law",
    "孩子": "child",
    "宝宝": "child",
    "狗": "dog",
    "柯基": "dog",
    "金毛": "dog",
    "泰迪": "dog",
    "哈士奇": "dog",
    "柴犬": "dog",
    "比熊": "dog",
    "拉布拉多": "dog",
    "边牧": "dog",
    "萨摩耶": "dog",
    "橘猫": "cat",
    "布偶猫": "cat",
    "英短": "cat",
    "狸花猫": "cat",
    "小狗": "dog",
    "狗狗": "dog",
    "猫": "cat",
    "小猫": "cat",
    "猫咪": "cat",
    "宠物": "pet",
}

#: The role words a relation of `self` may carry (sister, 上司 → boss, …).
_ROLE_WORDS = frozenset(_ROLES_EN.values()) | frozenset(_ROLES_ZH.values())

#: A surname tagged alone, then one of these: a person (王阿姨, 李老师, 张总).
_ADDRESS_ZH = _words("阿姨 叔叔 老师 先生 女士 小姐 经理 总 师傅 大爷 大妈 大姐 大哥")

_MONTHS = _words(
    "january february march april may june july august september october november december"
    " jan feb mar apr jun jul aug sep sept oct nov dec"
)
_DAYS = _words(
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs"
    " fri sat sun"
)
_TITLES = _words("mr mrs ms miss dr prof sir madam")

#: Words that start sentences in notes about people and are not names.
_NOT_NAMES = _words(
    """
    a an the this that these those it its my our your his her their we they he she you me us
    them there here what which who whom whose where when why how i i'm i've i'd i'll im
    user users customer customers client clients agent agents bot caller person people
    please remember note notes always never yesterday today tomorrow tonight last next every
    each also after before since once while because if yes no ok okay thanks thank hi hello
    hey sorry wow great good nice sure well oh so but and or then now just maybe really
    actually still already lol haha omg congrats congratulations happy glad awesome cool love
    wants want prefers prefer likes like asked asks said says told tells reported mentioned
    needs need has have had is are was were be been will would can could should did does do
    refund refunds order orders parcel parcels package packages delivery deliveries shipping
    payment payments account accounts ticket tickets call calls email emails send sends sent
    ship ships deliver delivers leave keep use make get go come see look let try tell ask give
    take buy pay check set put add remove cancel update change move moved moves lives live
    works work worked bought ordered recently usually sometimes often later earlier soon first
    second third new old big small favorite favourite same other another both all some any
    most many much more less few several one two three four five six seven eight nine ten
    none nothing something anything everything someone anyone everyone not don't doesn't
    didn't won't can't isn't aren't wasn't weren't that's it's there's here's what's let's
    went going gone got getting made making took taking saw seen felt feel feeling thought
    think thinking know knew known said saying wanted wanting tried trying started starting
    finished hope hoping wish glad sounds sound yeah yep nope hmm um uh ah
    """
)

_REDUP_STOP = _words(
    "妈妈 爸爸 哥哥 姐姐 弟弟 妹妹 奶奶 爷爷 宝宝 常常 刚刚 慢慢 天天 人人 谢谢 星星 看看 试试"
    " 想想 稍稍 渐渐 偏偏 往往 仅仅 明明 恰恰 时时 处处 一一 狗狗 猫猫 姥姥 叔叔 伯伯 舅舅 姑姑"
    " 婶婶 公公 婆婆 太太 好好 多多 快快 早早 年年 月月 家家 个个 样样 点点 些些 统统 纷纷"
    " 默默 悄悄 静静 轻轻 紧紧 久久 匆匆 高高 大大 小小 满满 足足 整整 白白 早早 刚刚"
)

#: Chinese words jieba tags as names that are not names in these notes.
_NOT_NAMES_ZH = _words(
    "城市 地方 国内 国外 本地 当地 附近 老家 家里 公司 学校 单位 过敏 用户 客户 那箱 这箱"
    " 顾客 买家 卖家 店铺 网店 商家 店家 客服 师傅 快递员"
    " 那个 这个 哪个 中国 全国 各地 外地 市区 郊区 小区 楼下 楼上 门口 前台 快递柜 驿站"
    " 东西 南北 上面 下面 里面 外面 时候 今天 明天 昨天 下次 以后 之前 上次"
    # verb-object words jieba tags as places: "师傅上门换了进水阀" names no place
    " 上门 登门 进门 出门 上楼 下楼 上街 回国 出国"
)

_PERSON_TAGS = frozenset({"nr", "nrt", "nrfg"})
_PLACE_TAGS = frozenset({"ns"})
_ORG_TAGS = frozenset({"nt"})
_THING_TAGS = frozenset({"nz"})

_SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程"
    "苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚"
    "邵万钱严覃武戴莫孔向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳"
)
_TITLES_ZH = (
    "总监|经理|主任|老师|医生|大夫|律师|师傅|教练|阿姨|叔叔|先生|女士|小姐|老板|总|姐|哥|"
    "大爷|大妈|奶奶|爷爷|科长|处长|局长|院长|校长|班主任|店长|主管|会计|护士"
)
_VERB_TAILS = frozenset(
    "订织买寄送给说做去来到回在和跟把被让叫请住搬是有要想也都又还带陪帮调练学教开卖讲问找看管换修装约就才会能"
)
#: A token jieba tags as a name that is a time (今年夏天) is none.
_TIME_CHARS = frozenset("年月日天夏冬春秋季节点钟")
_ORG_SUFFIXES = _words(
    "公司 物流 科技 集团 银行 医院 诊所 学校 大学 中学 小学 幼儿园 酒店 宾馆 餐厅 饭店 超市"
    " 商场 快递 工作室 小区 中心 研究所 事务所 仓 仓库 店 馆 厂 礼品 实验室 工厂 基地"
)
_NOT_NAME_PARTS = frozenset({"p", "uj", "ul", "r", "m", "q", "d", "c", "f", "t", "x", "u"})
