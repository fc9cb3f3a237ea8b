"""What a text says of entities and their relations, offline, in English and Chinese.

`extract(text)` finds:

- **mentions**: proper names (English capitalised runs; Chinese person, place and organisation
  names as jieba tags them, reduplicated given names such as 婷婷, a surname with a form of
  address such as 王阿姨), identifiers (order, parcel, account and ticket ids, plates: letters
  and digits together, or long digit runs), and kin and role words said of the person the memory
  is about ("my sister", 儿子), each role one entity per namespace (`role:sister`);
- **aliases**: names the text itself says are one ("my sister Anna" makes `role:sister` an alias
  of Anna; "Anna (we call her Annie)", "姐姐Anna");
- **relations** between two entities it names (`self` is the person the memory is about):
  kinship and roles, moving, living, working and studying somewhere, owning, ordering,
  delivering, marrying, managing.

Entity keys are names normalised (`entity_key`): the same name is one entity wherever it is
mentioned within what a reader may read (the graph never joins across namespaces a reader may
not read: `memory.stores.graph`). Heuristic and deterministic; `EXTRACTOR_VERSION` changes when
what it finds changes, and the projection then derives its graph again.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Literal, Protocol

import rjieba

#: Bump when extraction changes: the graph projection is derived again from canonical.
EXTRACTOR_VERSION = "2"

#: The person a memory is about (the namespace's subject), as a relation's end.
SELF = "self"


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


EntityKind = Literal["person", "place", "organisation", "id", "role", "thing"]


@dataclass(frozen=True, slots=True)
class Mention:
    #: The entity's key (`entity_key`): one entity wherever the same name is used.
    key: str
    #: The name as written.
    name: str
    kind: EntityKind
    #: Only a capitalised word opening a sentence ("Creating a family…", "Anna moved…"): a
    #: name only where some other memory the reader may read writes it as one.
    weak: bool = False


@dataclass(frozen=True, slots=True)
class Relation:
    subject: str
    predicate: str
    object: str


@dataclass(frozen=True, slots=True)
class GraphFacts:
    mentions: tuple[Mention, ...] = ()
    relations: tuple[Relation, ...] = ()
    #: (alias key, entity key): two names the text says are one entity.
    aliases: tuple[tuple[str, str], ...] = ()

    @property
    def keys(self) -> list[str]:
        return [m.key for m in self.mentions]


# ------------------------------------------------------------------------------ vocabulary

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

#: A surname tagged alone, then one of these: a person (王阿姨, 李老师, 张总).
#: The role words a relation of `self` may carry (sister, 上司 → boss, …).
_ROLE_WORDS = frozenset(_ROLES_EN.values()) | frozenset(_ROLES_ZH.values())

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
)

_PERSON_TAGS = frozenset({"nr", "nrt", "nrfg"})
_PLACE_TAGS = frozenset({"ns"})
_ORG_TAGS = frozenset({"nt"})
_THING_TAGS = frozenset({"nz"})

_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_HAN = re.compile(r"^[\u3400-\u9fff\uf900-\ufaff]+$")
_SENTENCES = re.compile(r"[^.!?。！？；;\n]+[.!?。！？；;]*")
_LATIN = "A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f"
_EN_TOKEN = re.compile(rf"[{_LATIN}0-9][{_LATIN}0-9'’.-]*[{_LATIN}0-9]|[{_LATIN}]|&")
_ID = re.compile(r"(?<![A-Za-z0-9#])#?[A-Za-z0-9][A-Za-z0-9·._/-]*[A-Za-z0-9]|#\d+")
_NOT_ID = re.compile(
    r"^\d+(?:st|nd|rd|th|am|pm|kg|km|g|m|cm|mm|ml|l|h|hr|hrs|min|mins|s|x|k|mb|gb|tb|yuan|rmb"
    r"|usd|eur|gbp|yrs|yr|y|mo|d|w)?$|^\d{1,4}[-/.]\d{1,2}(?:[-/.]\d{1,4})?$|^\d{1,2}:\d{2}$",
    re.IGNORECASE,
)

# Relation words: (pattern over the text between two entities, predicate).
_RELATIONS_EN: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p, re.IGNORECASE), name)
    for p, name in (
        (r"\b(?:moved|moving|relocated|relocating|moves)\s+(?:back\s+)?to\b", "moved_to"),
        (r"\b(?:lives|living|live|lived|stays|staying|is based|based)\s+(?:in|at)\b", "lives_in"),
        (r"\b(?:works|working|worked|work|employed|job)\s+(?:at|for|in)\b", "works_at"),
        (r"\b(?:studies|studying|studied|study|enrolled)\s+(?:at|in)\b", "studies_at"),
        (r"\b(?:goes to school at|attends|attending)\b", "studies_at"),
        (r"\b(?:married to|marrying|married|engaged to)\b", "married_to"),
        (r"\b(?:owns|bought|purchased|has a|drives)\b", "owns"),
        (r"\b(?:ordered|placed order|placed an order)\b", "ordered"),
        (
            r"\b(?:delivered to|shipped to|sent to|send to|sends .* to|ships to|goes to)\b",
            "delivered_to",
        ),
        (r"\b(?:manages|managing|runs|leads)\b", "manages"),
        (r"\b(?:replaced by|swapped for)\b", "replaced_by"),
        (r"\ballergic to\b", "allergic_to"),
    )
)

_RELATIONS_ZH: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), name)
    for p, name in (
        (r"(?:搬到|搬去|搬家到|迁到|调到|转到)", "moved_to"),
        (r"(?:住在|定居在?|居住在)", "lives_in"),
        (r"(?:嫁给|娶了|和.{0,2}结婚)", "married_to"),
        (r"(?:寄到|寄给|送到|发到|送给|寄往)", "delivered_to"),
        (r"(?:买了|购买了?|入手了?)", "owns"),
        (r"(?:订了|下单了?|预订了?)", "ordered"),
        (r"(?:管理|负责)", "manages"),
        (r"(?:换成了?|替换成?)", "replaced_by"),
    )
)
# "<A> 在 <B> 读书/工作/住": the verb follows the place.
_AFTER_ZH: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(p), name)
    for p, name in (
        (r"^(?:读书|上学|读大学|读研|念书|读高中|读初中|读小学|上大学|留学|学习|读)", "studies_at"),
        (r"^(?:工作|上班|任职|实习|打工|当)", "works_at"),
        (r"^(?:住|生活|定居|安家)", "lives_in"),
    )
)

_PLACE_BEFORE = re.compile(r"\b(?:in|to|at|from|near|around|visit|visited|visiting)\s+$")
_ROLE_AFTER = re.compile(
    r"\s*(?:,|is|was)\s+(?:my|our|their|the (?:customer|user)'s)\s+(\w+(?:-in-law)?)",
    re.IGNORECASE,
)
_POSSESSOR_EN = re.compile(
    r"\b(?:my|our|their|his|her|the (?:customer|user|client|caller)'s|(?:customer|user|client)'s)"
    r"\s+(?:(?:older|younger|little|big|elder|baby|twin|best|eldest|youngest|new)\s+)?"
    r"(" + "|".join(sorted((re.escape(r) for r in _ROLES_EN), key=len, reverse=True)) + r")\b",
    re.IGNORECASE,
)
_ALIAS_EN = re.compile(
    r"\(\s*(?:we call (?:her|him|them|it)|also called|called|aka|a\.k\.a\.|nicknamed|goes by)?"
    r"\s*[\"'“]?([A-Z][\w'-]+)[\"'”]?\s*\)|\b(?:aka|a\.k\.a\.|also known as|known as|nicknamed|"
    r"goes by|(?:whom|who) (?:\w+ ){0,2}calls?|(?:whom|who) (?:\w+ ){0,2}(?:knows?) as)"
    r"\s+(?:her\s+|him\s+|them\s+)?[\"'“]?([A-Z][\w'-]+)"
)


def entity_key(name: str, kind: EntityKind | None = None) -> str:
    """The key an entity is found by: its name, normalised (case, width, spacing, a possessive,
    a leading article or title); an identifier by its letters and digits only (ORD-A1B2 and
    ord a1b2 are one order); a role by its English word (儿子 and son are one)."""
    text = unicodedata.normalize("NFKC", name).strip()
    if kind == "id":
        return "id:" + re.sub(r"[^0-9a-z]", "", text.casefold())
    if kind == "role":
        return "role:" + text.casefold()
    text = re.sub(r"['’]s$", "", text)
    words = text.casefold().split()
    while words and (words[0] in ("the", "a", "an") or words[0].rstrip(".") in _TITLES):
        words = words[1:]
    return " ".join(words) or text.casefold()


@dataclass
class _Found:
    mentions: dict[str, Mention] = field(default_factory=dict)
    relations: dict[tuple[str, str, str], Relation] = field(default_factory=dict)
    aliases: dict[tuple[str, str], None] = field(default_factory=dict)

    def mention(self, name: str, kind: EntityKind, *, weak: bool = False) -> str:
        key = entity_key(name, kind)
        if key and (key not in self.mentions or (self.mentions[key].weak and not weak)):
            self.mentions[key] = Mention(key, name.strip(), kind, weak)
        return key

    def relate(self, subject: str, predicate: str, obj: str) -> None:
        if subject and obj and subject != obj:
            self.relations.setdefault((subject, predicate, obj), Relation(subject, predicate, obj))

    def alias(self, alias: str, key: str) -> None:
        if alias and key and alias != key:
            self.aliases[(alias, key)] = None

    def forget(self, keys: set[str]) -> None:
        """Drop these entities, with every relation and alias that names one."""
        for key in keys:
            self.mentions.pop(key, None)
        self.relations = {k: r for k, r in self.relations.items() if not keys & {k[0], k[2]}}
        self.aliases = {a: None for a in self.aliases if not keys & set(a)}

    def facts(self) -> GraphFacts:
        return GraphFacts(
            tuple(self.mentions.values()), tuple(self.relations.values()), tuple(self.aliases)
        )


@dataclass(frozen=True, slots=True)
class _Span:
    start: int
    end: int
    key: str
    kind: EntityKind


class Hints(Protocol):
    """What a writer proposed (`memory.models.GraphHints`, already checked against the text)."""

    @property
    def entities(self) -> Sequence[HintedEntity]: ...
    @property
    def relations(self) -> Sequence[HintedRelation]: ...


class HintedEntity(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def aliases(self) -> Sequence[str]: ...


class HintedRelation(Protocol):
    @property
    def subject(self) -> str: ...
    @property
    def predicate(self) -> str: ...
    @property
    def object(self) -> str: ...


def facts_of(text: str, hints: Hints | None = None) -> GraphFacts:
    """What `text` says to the graph: what the extractor finds, and what its writer proposed
    (`hints`, names the text says: the caller keeps only those, `GraphHints.still_said`). A
    role predicate of `self` ("sister": Anna) makes the role an alias of the person, as the
    extractor does for "my sister Anna"."""
    found = extract(text)
    if hints is None or not (hints.entities or hints.relations):
        return found
    more = _Found(
        {m.key: m for m in found.mentions},
        {(r.subject, r.predicate, r.object): r for r in found.relations},
        dict.fromkeys(found.aliases),
    )
    key_of: dict[str, str] = {SELF.casefold(): SELF}
    for entity in hints.entities:
        kind: EntityKind = entity.kind if entity.kind in _HINT_KINDS else "thing"  # type: ignore[assignment]
        key = more.mention(entity.name, kind)
        key_of[_fold(entity.name)] = key
        for alias in entity.aliases:
            alias_key = more.mention(alias, kind)
            key_of[_fold(alias)] = key
            more.alias(alias_key, key)
    for relation in hints.relations:
        subject, obj = key_of.get(_fold(relation.subject)), key_of.get(_fold(relation.object))
        if subject is None or obj is None:
            continue
        more.relate(subject, relation.predicate, obj)
        if subject == SELF and relation.predicate in _ROLE_WORDS:
            more.alias(more.mention(relation.predicate, "role"), obj)
    return more.facts()


_HINT_KINDS = frozenset({"person", "place", "organisation", "id", "thing"})


def _fold(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).casefold().split())


def extract(text: str) -> GraphFacts:
    """The entities `text` mentions, the names it says are one, and the relations it states."""
    found = _Found()
    overlapped: set[str] = set()
    spoken: set[str] = set()
    for sentence in _SENTENCES.finditer(unicodedata.normalize("NFKC", text)):
        s = sentence.group()
        offset = sentence.start()
        spans = _named(s, found) + _ids(s, found) + _english(s, found) + _chinese(s, found)
        spans.sort(key=lambda sp: (sp.start, -sp.end))
        kept: list[_Span] = []
        for sp in spans:  # overlapping spans: the first, longest one wins
            if kept and sp.start < kept[-1].end:
                overlapped.add(sp.key)
                continue
            kept.append(sp)
        spoken.update(sp.key for sp in kept)
        _relations(s, kept, found)
        del offset
    # A name found only inside a longer one ("汪星" of "汪星厨房") is not an entity of its own.
    found.forget(overlapped - spoken)
    return found.facts()


#: A name in quotation marks or title marks: a shop, a course, a product, a place's name.
_QUOTED = re.compile(r"[“\"「『《]([^”\"」』》\n]{2,30})[”\"」』》]")
#: A numbered place or thing: plot 27, room 12B, locker 15, gate B4.
_NUMBERED = re.compile(
    r"\b(plot|room|unit|flat|apartment|apt|locker|gate|bay|stall|desk|table|platform|seat|"
    r"bed|ward|suite|lot|pitch|berth|dock|shelf|cabin|villa|house|building|block|pier)"
    r"\s+(?:no\.?\s*)?([A-Z]?\d{1,5}[A-Z]?)\b",
    re.IGNORECASE,
)
_SURNAMES = (
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程"
    "苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚"
    "邵万钱严覃武戴莫孔向汤常温康施文牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳"
)
_TITLES_ZH = (
    "总监|经理|主任|老师|医生|大夫|律师|师傅|教练|阿姨|叔叔|先生|女士|小姐|老板|总|姐|哥|"
    "大爷|大妈|奶奶|爷爷|科长|处长|局长|院长|校长|班主任|店长|主管|会计|护士"
)
_ADDRESSED_ZH = re.compile(
    rf"(?:[老小阿][{_SURNAMES}](?![序车库区时])|[{_SURNAMES}](?:{_TITLES_ZH}))"
)


def _named(s: str, found: _Found) -> list[_Span]:
    """Names the text marks: quoted (“星河少儿编程”, "Blue Door"), numbered (plot 27), and a
    Chinese surname with a title or 老/小 (黄总监, 老郑)."""
    spans: list[_Span] = []
    for m in _QUOTED.finditer(s):
        name = m.group(1).strip()
        if name and len(name.split()) <= 5:
            key = found.mention(name, "thing")
            spans.append(_Span(m.start(1), m.end(1), key, "thing"))
    for m in _NUMBERED.finditer(s):
        key = found.mention(f"{m.group(1)} {m.group(2)}", "id")
        spans.append(_Span(m.start(), m.end(), key, "id"))
    for m in _ADDRESSED_ZH.finditer(s):
        key = found.mention(m.group(), "person")
        spans.append(_Span(m.start(), m.end(), key, "person"))
    return spans


def _ids(s: str, found: _Found) -> list[_Span]:
    spans: list[_Span] = []
    for m in _ID.finditer(s):
        token = m.group()
        core = token.lstrip("#")
        has_digit = any(c.isdigit() for c in core)
        has_alpha = any(c.isascii() and c.isalpha() for c in core)
        if not has_digit:
            continue
        if has_alpha:
            long_enough = len(core) >= 4 and not _NOT_ID.match(core)
        else:  # digits only: a ticket (#88213) or a tracking number, not a date or an amount
            long_enough = token[0] == "#" or (len(core) >= 8 and core.isdigit())
        if long_enough:
            key = found.mention(token, "id")
            spans.append(_Span(m.start(), m.end(), key, "id"))
    return spans


def _sentence_start(s: str, i: int) -> bool:
    before = s[:i].rstrip(" \t\"'“‘(")
    return not before or before[-1] in ".!?:;。！？：；\n-—"


def _english(s: str, found: _Found) -> list[_Span]:
    spans: list[_Span] = []
    tokens = list(_EN_TOKEN.finditer(s))
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        word = tok.group()
        if any(c.isdigit() for c in word) or not _is_name_token(s, tok.start(), word):
            i += 1
            continue
        j = i + 1
        while j < len(tokens):
            nxt = tokens[j].group()
            gap = s[tokens[j - 1].end() : tokens[j].start()]
            if gap.strip() not in ("", "&") or "\n" in gap:
                break
            if (
                nxt[:1].isupper()
                and not any(c.isdigit() for c in nxt)
                and _bare(nxt) not in _MONTHS | _DAYS
            ):
                j += 1
            elif nxt in ("of", "de", "van", "von", "da", "del", "la") and j + 1 < len(tokens):
                after = tokens[j + 1].group()
                if after[:1].isupper() and s[tokens[j].end() : tokens[j + 1].start()] == " ":
                    j += 2
                else:
                    break
            else:
                break
        start, end = tokens[i].start(), tokens[j - 1].end()
        name = re.sub(r"['’]s$", "", s[start:end])
        words = name.split()
        while words and words[0].rstrip(".").casefold() in _TITLES and len(words) > 1:
            words = words[1:]
        name = " ".join(words)
        # a single letter is a size, a grade or an initial, never a name that links anything
        if len(name) > 1 and name.casefold() not in _NOT_NAMES and _bare(name) not in _TITLES:
            kind: EntityKind = "person"
            if name.isupper() and len(name) > 1:
                kind = "organisation"  # an acronym
            elif _PLACE_BEFORE.search(s[:start]):
                kind = "place"
            weak = len(words) == 1 and _sentence_start(s, start)
            key = found.mention(name, kind, weak=weak)
            spans.append(_Span(start, end, key, kind))
            if len(words) == 2:
                found.alias(entity_key(words[0]), key)  # "Anna" of "Anna Schmidt"
        i = j
    # Kin and roles of the person the memory is about: "my sister", "the customer's son Tom".
    for m in _POSSESSOR_EN.finditer(s):
        role = _ROLES_EN[m.group(1).casefold()]
        role_key = found.mention(role, "role")
        spans.append(_Span(m.start(1), m.end(1), role_key, "role"))
        named = next(
            (sp for sp in spans if sp.kind == "person" and 0 <= sp.start - m.end() <= 3), None
        )
        if named is not None:
            found.alias(role_key, named.key)
            found.relate(SELF, role, named.key)
        else:
            found.relate(SELF, role, role_key)
    # "Anna, my sister" / "Anna is my sister"
    for sp in [sp for sp in spans if sp.kind == "person"]:
        tail = s[sp.end : sp.end + 40]
        said = _ROLE_AFTER.match(tail)
        if said and said.group(1).casefold() in _ROLES_EN:
            role = _ROLES_EN[said.group(1).casefold()]
            role_key = found.mention(role, "role")
            found.alias(role_key, sp.key)
            found.relate(SELF, role, sp.key)
    for m in _ALIAS_EN.finditer(s):
        alias = m.group(1) or m.group(2)
        before = sorted(
            (sp for sp in spans if sp.end <= m.start() and sp.kind in ("person", "role")),
            key=lambda sp: (sp.kind == "person", sp.end),
        )
        if alias and before:
            target = before[-1].key
            alias_key = found.mention(alias, "person")
            found.alias(alias_key, target)
    return spans


def _bare(word: str) -> str:
    """A token folded, without a possessive or a final full stop."""
    return re.sub(r"['’]s$", "", word.casefold().rstrip("."))


def _is_name_token(s: str, start: int, word: str) -> bool:
    if not word[:1].isupper():
        return False
    folded = _bare(word)
    if folded in _MONTHS or folded in _DAYS or folded in ("i", "i'm", "i've", "i'd", "i'll"):
        return False
    if folded in _TITLES:
        return True
    if _sentence_start(s, start):
        return folded not in _NOT_NAMES and re.sub(r"['’]s$", "", folded) not in _NOT_NAMES
    return True


def _chinese(s: str, found: _Found) -> list[_Span]:
    if not _CJK.search(s):
        return []
    spans: list[_Span] = []
    tagged = rjieba.tag(s)
    pos = 0
    cells: list[tuple[int, int, str, str]] = []
    for word, tag in tagged:
        at = s.find(word, pos)
        if at < 0:
            continue
        cells.append((at, at + len(word), word, tag))
        pos = at + len(word)
    cells = _split_name_verbs(cells)
    for start, end, name in _called_zh(s):
        key = found.mention(name, "thing")
        spans.append(_Span(start, end, key, "thing"))
    for m in _WORK_ZH.finditer(s):
        if m.group(1) not in _NOT_NAMES_ZH:
            key = found.mention(m.group(1), "organisation")
            spans.append(_Span(m.start(1), m.end(1), key, "organisation"))
    for start, end, name in _organisations_zh(cells):
        key = found.mention(name, "organisation")
        spans.append(_Span(start, end, key, "organisation"))
    i = 0
    while i < len(cells):
        start, end, word, tag = cells[i]
        nxt = cells[i + 1] if i + 1 < len(cells) else None
        if _ROLES_ZH.get(word) in ("dog", "cat", "pet") and nxt is not None and nxt[0] == end:
            # a pet and its name: 猫奶茶, 柯基可乐
            role_key = found.mention(_ROLES_ZH[word], "role")
            spans.append(_Span(start, end, role_key, "role"))
            if _HAN.match(nxt[2]) and 2 <= len(nxt[2]) <= 3 and nxt[3] in ("n", "nz", "nr", "z"):
                key = found.mention(nxt[2], "thing")
                spans.append(_Span(nxt[0], nxt[1], key, "thing"))
                found.alias(role_key, key)
                found.relate(SELF, _ROLES_ZH[word], key)
                i += 2
                continue
        if word in _ROLES_ZH and not (tag in _PERSON_TAGS and len(word) == 1):
            role = _ROLES_ZH[word]
            role_key = found.mention(role, "role")
            spans.append(_Span(start, end, role_key, "role"))
            named = _zh_name(cells, i + 1)
            if named is not None and named[0] == end:
                n_start, n_end, name, j = named
                key = found.mention(name, "person")
                spans.append(_Span(n_start, n_end, key, "person"))
                found.alias(role_key, key)
                found.relate(SELF, role, key)
                i = j
                continue
            found.relate(SELF, role, role_key)
            i += 1
            continue
        named = _zh_name(cells, i)
        if named is not None:
            n_start, n_end, name, j = named
            key = found.mention(name, "person")
            spans.append(_Span(n_start, n_end, key, "person"))
            i = j
            continue
        kind: EntityKind | None = None
        if tag in _PLACE_TAGS:
            kind = "place"
        elif tag in _ORG_TAGS:
            kind = "organisation"
        elif tag in _PERSON_TAGS and len(word) >= 2 and _HAN.match(word) and word[0] in _SURNAMES:
            kind = "person"
        if kind is not None and word not in _NOT_NAMES_ZH and _HAN.match(word):
            key = found.mention(word, kind)
            spans.append(_Span(start, end, key, kind))
        del nxt
        i += 1
    _alias_zh(s, spans, found)
    return spans


def _alias_zh(s: str, spans: list[_Span], found: _Found) -> None:
    """王思琪（家里都叫她琪琪）, 陈秀兰，小名兰姑: the name given is the person's named before."""
    for m in _ALIAS_ZH.finditer(s):
        alias = m.group(1) or m.group(2)
        before = [sp for sp in spans if sp.end <= m.start() and sp.kind == "person"]
        if alias and before:
            key = found.mention(alias, "person")
            spans.append(_Span(m.start(), m.end(), key, "person"))
            found.alias(key, before[-1].key)


_ALIAS_ZH = re.compile(
    r"[（(，,]\s*(?:家里|大家|我们|家人|朋友们?)?都?(?:叫|喊|称)(?:她|他|它)?为?"
    r"([\u3400-\u9fffA-Za-z]{2,4}?)\s*(?=[）)，,。]|$)|(?:小名|昵称|外号)(?:叫|是)?"
    r"([\u3400-\u9fffA-Za-z]{2,4}?)(?=[）)，,。]|$)"
)
_VERB_TAILS = frozenset(
    "订织买寄送给说做去来到回在和跟把被让叫请住搬是有要想也都又还带陪帮调练学教开卖讲问找看管换修装约就才会能"
)
#: A token jieba tags as a name that is a time (今年夏天) is none.
_TIME_CHARS = frozenset("年月日天夏冬春秋季节点钟")
_CALLED_ZH = re.compile(
    r"(?:名叫|叫做|叫|取名为?|起名叫?|名字是|名为|昵称是?)([\u3400-\u9fff]{2,4}?)(?=[，。,.、！!？?；;）)\s]|$)"
)
_ORG_SUFFIXES = _words(
    "公司 物流 科技 集团 银行 医院 诊所 学校 大学 中学 小学 幼儿园 酒店 宾馆 餐厅 饭店 超市"
    " 商场 快递 工作室 小区 中心 研究所 事务所 仓 仓库 店 馆 厂 礼品 实验室 工厂 基地"
)
_NOT_NAME_PARTS = frozenset({"p", "uj", "ul", "r", "m", "q", "d", "c", "f", "t", "x", "u"})
_WORK_ZH = re.compile(r"在([\u3400-\u9fff]{2,8}?)(?:工作|上班|做|当|实习|任职|打工)")


def _split_name_verbs(cells: list[tuple[int, int, str, str]]) -> list[tuple[int, int, str, str]]:
    """A name jieba glued to the verb after it (刘桂芬订, 林悦织): the name, then the verb."""
    out: list[tuple[int, int, str, str]] = []
    i = 0
    while i < len(cells):
        start, end, word, tag = cells[i]
        nxt = cells[i + 1] if i + 1 < len(cells) else None
        if tag in _PERSON_TAGS and any(c in _TIME_CHARS for c in word):
            out.append((start, end, word, "t"))
        elif tag in _PERSON_TAGS and len(word) in (3, 4) and word[-1] in _VERB_TAILS:
            out.append((start, end - 1, word[:-1], tag))
            out.append((end - 1, end, word[-1], "v"))
        elif (
            len(word) == 1
            and word in _SURNAMES
            and tag in _PERSON_TAGS
            and nxt is not None
            and nxt[0] == end
            and len(nxt[2]) == 2
            and _HAN.match(nxt[2])
            and nxt[2][1] in _VERB_TAILS
        ):
            # a surname, then a given name glued to the verb after it (李 + 航寄)
            out.append((start, end + 1, word + nxt[2][0], "nr"))
            out.append((end + 1, nxt[1], nxt[2][1], "v"))
            i += 2
            continue
        else:
            out.append((start, end, word, tag))
        i += 1
    return out


def _called_zh(s: str) -> list[tuple[int, int, str]]:
    """Names the text gives: 叫竹舍, 名叫可乐."""
    return [(m.start(1), m.end(1), m.group(1)) for m in _CALLED_ZH.finditer(s)]


def _organisations_zh(cells: list[tuple[int, int, str, str]]) -> list[tuple[int, int, str]]:
    """Organisations and named places: one or two words before a suffix that says what they
    are (远航物流, 阳光实验小学, 翠苑小区), or where someone works (在远航物流做调度)."""
    out: list[tuple[int, int, str]] = []
    for i, (_start, end, word, _tag) in enumerate(cells):
        if word not in _ORG_SUFFIXES or i == 0:
            continue
        j = i
        while j > 0 and i - j < 2:
            prev = cells[j - 1]
            if prev[1] != cells[j][0] or not _HAN.match(prev[2]) or prev[3] in _NOT_NAME_PARTS:
                break
            if prev[3] == "v" and j - 1 > 0 and _HAN.match(cells[j - 2][2]):
                break  # a verb starts a name only where the sentence starts (远航物流去年…)
            if prev[2] in _NOT_NAMES_ZH or prev[2] in _ROLES_ZH:
                break
            j -= 1
        if j < i:
            out.append((cells[j][0], end, "".join(c[2] for c in cells[j : i + 1])))
    return out


def _zh_name(cells: list[tuple[int, int, str, str]], i: int) -> tuple[int, int, str, int] | None:
    """A person's name at cell `i`: a name jieba tags (two or three characters), a surname
    with a form of address (王阿姨), a reduplicated given name (婷婷), or a Latin-script name
    (姐姐Anna). (start, end, name, next cell)."""
    if i >= len(cells):
        return None
    start, end, word, tag = cells[i]
    nxt = cells[i + 1] if i + 1 < len(cells) else None
    if tag in _PERSON_TAGS and len(word) == 1 and nxt is not None and nxt[0] == end:
        if nxt[2] in _ADDRESS_ZH:
            return start, nxt[1], word + nxt[2], i + 2
        return None
    if tag in _PERSON_TAGS and 2 <= len(word) <= 4 and _HAN.match(word):
        if word in _NOT_NAMES_ZH or word in _ROLES_ZH or word in _ADDRESS_ZH:
            return None
        if word[0] in _SURNAMES or word[0] in "小老阿":
            return start, end, word, i + 1
        return None  # jieba tags many a word as a name (明白, 上门): a name starts with a surname
    if len(word) == 2 and word[0] == word[1] and _HAN.match(word) and word not in _REDUP_STOP:
        return start, end, word, i + 1
    if (
        tag == "eng"
        and len(word) >= 2
        and word[:1].isupper()
        and word.isalpha()
        and word.casefold() not in _NOT_NAMES
    ):
        return start, end, word, i + 1
    return None


def _relations(s: str, spans: list[_Span], found: _Found) -> None:
    """Relations between entities named one after the other in a sentence."""
    named = [sp for sp in spans if sp.kind != "role" or sp.key.startswith("role:")]
    for a, b in itertools.pairwise(named):
        between = s[a.end : b.start]
        if len(between) > 60:
            continue
        after = s[b.end : b.end + 6]
        predicate = _predicate(between, after)
        if predicate is not None:
            found.relate(a.key, predicate, b.key)


def _predicate(between: str, after: str) -> str | None:
    for pattern, name in _RELATIONS_EN:
        if pattern.search(between):
            return name
    for pattern, name in _RELATIONS_ZH:
        if pattern.search(between):
            return name
    if between.strip().endswith("在"):
        for pattern, name in _AFTER_ZH:
            if pattern.match(after):
                return name
        return "located_in"
    return None
