"""Business claims (orders, payments, shipments, refunds) and corrections: their cues and their
readers (the name the user goes by is `names`'s, statements about the user `personal`'s,
standing wishes about how the user is served `wishes`', requests to remember `remembering`'s)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from governed_memory.memory.models import Candidate
from governed_memory.memory.write.extraction.clauses import _clean
from governed_memory.memory.write.extraction.cues import (
    _Q_ANY,
    _Q_START,
    _WHY,
    _rx,
    _w,
)
from governed_memory.memory.write.extraction.models import CLAIM
from governed_memory.memory.write.extraction.unclaimed import said_to_be_so
from governed_memory.memory.write.normalize import fold, normalize_whitespace

# --------------------------------------------------------------------------------------------
# Cues (on folded text, as in `cues`)

# Business claims
_ENTITY: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "refund",
        _rx(
            r"退款|退钱|退费|退货款|申请(?:了)?退货|钱(?=[^，,。]{0,4}退)",
            # (what the user sent back is the refund's: "i returned the boots last week")
            _w(r"refunds?|refunded|money back|reimburse\w*|i\s+(?:already\s+|just\s+)?returned"),
        ),
    ),
    (
        "payment",
        _rx(
            r"付款|支付|扣款|扣费|扣钱|扣了|收费|多扣|重复扣|付了|付过|到账|优惠券|优惠码",
            _w(
                r"charged|charges?|payments?|paid|billing|billed|transactions?|overcharged"
                r"|promo\s+code|discount\s+code|coupon|voucher"
                r"|(?:my|the)\s+(?:credit\s+|debit\s+|bank\s+)?card"
            ),
        ),
    ),
    (
        "logistics",
        _rx(
            r"快递|物流|包裹|运单|配送|派送|送货|签收|揽收|揽件|快递员|驿站|快递柜|丰巢",
            _w(
                r"shipments?|shipping|packages?|parcels?|deliver(?:y|ed|ies)|courier|tracking"
                r"|delivery\s+driver|(?:the|my)\s+driver(?=\s+(?:said|says|left|marked|called|came|never|didn't|did\s+not|dropped|refused|knocked|rang|handed|threw|was\s+rude|call))"
                r"|in transit"
            ),
        ),
    ),
    (
        "order",
        _rx(
            r"订单|单号|下的单|发货|发错|错发|漏发|少发|送错|货|颜色不对|尺码不对|型号不对",
            _w(r"orders?|ordered|shipped|dispatched|items?"),
        ),
    ),
)
_STATUS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "refund",
        _rx(
            r"申请了退款|已申请退款|退款(?:失败|被拒|中|成功|了)|没退|未退|还没退|没有退|不退|已退款|退了"
            # a return asked for ("我昨天就申请退货了")
            r"|申请(?:了)?退货(?!怎么|吗|么|呢)"
            r"|退款[^，,。]{0,6}?(?:显示)?(?:处理中|审核中|被拒绝?)"
            r"|退款申请[^，,。]{0,20}?(?:还|仍|一直)(?:在|是)?(?:处理中|审核中|审核)"
            r"|退款(?:(?!发票|评价|认证|换货|账号)[^。]){0,12}?(?:还是|仍然|仍|还在|一直)(?:在)?(?:审核中|处理中)"
            # a refund not paid ("退款一直没给", "退款到现在还没打过来")
            r"|退款[^，,。]{0,6}?(?:没|未)(?:有)?(?:给|退|打|返|下来|到)",
            _w(
                r"refunded|requested a refund|applied for a refund|refund (?:was )?(?:denied"
                r"|rejected)|(?:still )?no refund(?: yet)?"
                r"|refund\s+(?:[\w£$€¥.,-]+\s+){0,3}?(?:was|has\s+been|got|is)\s+(?:approved|issued|processed)"
                # a refund promised by a date that has passed ("I was told the refund would be
                # back on my card in 5 days. It's day 9.")
                r"|(?:told|said|promised)\s+(?:me\s+)?(?:that\s+)?(?:the\s+|my\s+)?refund\s+would\s+(?:be"
                r"|arrive|come|land|show)"
                # a refund said to be issued, bare ("you said refund issued but my bank shows
                # nothing")
                r"|(?:said|says|told\s+me)\s+(?:the\s+|my\s+)?refund\s+(?:was\s+)?(?:issued|processed"
                r"|sent|approved)"
                r"|(?:got|received)\s+(?:my|the|a)\s+refund"
                r"|only\s+(?:got|received)\s+(?:half|part|some)\s+(?:of\s+)?(?:the|my|it)"
                r"|(?:shows?|showing|says|marked)\s+(?:as\s+)?['\"]?(?:completed|complete|processed"
                r"|issued|sent|successful|pending|still\s+pending)"
                r"|(?:still\s+)?no\s+money\s+back"
                r"|(?:didn't|did\s+not|haven't|have\s+not|never|still\s+haven't)\s+(?:got(?:ten)?|get"
                r"|received?)\s+(?:a|my|the|any|that)\s+refund"
            ),
        ),
    ),
    (
        "payment",
        _rx(
            r"扣了(?:两|2|二)次|扣两次|重复扣|多扣|扣款失败|支付失败|付款失败|付不了|被扣|已扣|扣了|已付款|已支付"
            r"|付了钱|付过了|付款成功|支付成功|没扣|未扣款|待付款|待支付|未付款|显示未支付|多付了|多收了|多扣了"
            # paid, said as the user's own act ("我已经付过款了", "钱早就付了")
            r"|(?:付过|付完|已经?付(?:了)?)款(?!的|之后|以后|后|再|就|才)|(?:款|钱)(?:早就|已经|早)付(?:过)?了"
            r"|(?:已经|早就)付过钱"
            r"|显示(?:没|未)付"
            # a discount not taken off what was paid ("优惠券没抵扣上")
            r"|(?:优惠券|券|优惠码|折扣|红包|满减)[^，,。]{0,4}?(?:没|未|没有)(?:抵扣|用上|生效|减)"
            r"|按原价(?:扣|付|收|结算)|付了(?:两|2|二)次|重复(?:付|支付)",
            _w(
                r"charged (?:me |my (?:card|account) )?(?:twice|again|extra|more|double)"
                r"|double[- ]charged|overcharged"
                # "my card got hit with the same £56.20 payment two times"
                r"|(?:charged|hit|billed|debited)\s+(?:with\s+)?(?:(?:[^.!?]|(?<=\d)\.(?=\d)){0,30}?\s)?(?:twice|two\s+times"
                r"|2\s+times|double)"
                r"|payments?\s+(?:keeps?|kept)\s+(?:getting\s+)?(?:failing|declin\w+|bouncing)"
                # money gone from the account all the same ("the money still left my account")
                r"|money\s+(?:still\s+|already\s+)?(?:left|came\s+out\s+of|was\s+taken\s+from"
                r"|went\s+out\s+of)\s+my\s+(?:account|card)"
                r"|(?:i\s+)?paid\s+(?:the\s+)?full\s+price|(?:promo|discount|coupon|voucher)\s+"
                r"(?:code\s+)?(?:[a-z0-9-]+\s+)?(?:didn't|did\s+not|wasn't|was\s+not|never\s+got)\s+"
                r"(?:apply|applied|work|taken\s+off)"
                r"|billed twice|was charged|been charged|got charged|payment (?:failed|declined"
                r"|went (?:through|thru)|was declined|bounced)"
                r"|card (?:was |got |keeps getting )?declined"
                # a payment said to hang ("PayPal says the payment is pending")
                r"|payment\s+(?:is|was|has\s+been|stays?|still)\s+(?:still\s+)?(?:pending|on\s+hold"
                r"|stuck|processing)"
                # "Payment for INV-2026-0912 failed on your end"
                r"|payments?\s+(?:for|on)\s+(?:[\w#-]+\s+){1,3}?(?:has\s+|have\s+)?(?:failed|bounced"
                r"|was\s+declined|got\s+declined|didn't\s+go\s+through)"
                r"|(?:i|we)\s+(?:already\s+|have\s+|just\s+)?paid\s+(?:for\s+(?:the\s+|my\s+|our\s+)?order"
                r"|via|with|by)"
                r"|(?:says|shows?|showing|marked|lists?|listed)\s+(?:it\s+)?(?:as\s+)?['\"]?(?:unpaid"
                r"|not paid"
                r"|awaiting payment"
                r"|pending payment)"
            ),
        ),
    ),
    (
        "order",
        _rx(
            r"(?:还?没有?|未|不)(?:发货|发出)|已经?(?:发货|发出|取消)|发货了|取消了|被取消|漏发|(?<![别要我条息句])发错|错发"
            r"|少发|送错|货不对|发成了|待发货|待出库|补发|还显示|没看到新单号|(?<![我票])(?:还|都)没发(?:货)?(?=[，,。！!？?~\s]|$|呢|啊|呀)"
            r"|(?:跟|和|与)订单(?:上|里)?(?:的)?(?:不一样|不一致|不符)|货不对板|变成(?:了)?已关闭|被关闭|已关闭"
            r"|(?:收到的|寄来的|发来的|到的)[^，,。]{0,4}?(?:颜色|尺码|码数|型号|款式)不对"
            r"|(?:颜色|尺码|码数|型号|款式)发错了?|只收到|(?:显示|变成了?|状态是?)(?:已|交易)?完成"
            r"|订单(?:却|也|都|竟然|居然)?(?:没了|不见了|消失了)"
            # an order the user never placed ("不是我下的单！我账号可能被盗了")
            r"|不是我下的(?:单)?|我(?:没有?|从没|从来没)(?:下过?|买过?)(?:这个|这)?单|(?:账号|账户)(?:可能|好像|应该)?被盗",
            _w(
                r"(?:hasn't|has not|haven't|have not|didn't|did not|not yet|still not|isn't|is not"
                r"|wasn't|was not)\s+(?:even\s+|yet\s+)?(?:been\s+)?"
                r"(?:shipped|dispatched|processed)"
                r"|(?:doesn't|does not|didn't|did not|won't|isn't)\s+(?:even\s+)?show(?:ing)?\s+up"
                r"|(?:was|been|got"
                r"|is|has been)\s+(?:shipped|dispatched|cancell?ed)|cancell?ed|wrong (?:item|size"
                r"|colou?r|product|order)|(?:is|are|was|were|running) (?:late|overdue)"
                r"|still\s+(?:says|shows)\s+['\"]?(?:processing|pending|preparing)"
                # "order status says processing for like 10 days now"
                r"|(?:says|shows|showing)\s+['\"]?(?:processing|pending|preparing|on\s+hold)['\"]?\s+for"
                r"\s+(?:like\s+|about\s+|over\s+|almost\s+|nearly\s+)?(?:\d+|a|two|three|several)"
                r"|(?:is|are)\s+still\s+['\"]?(?:processing|pending|preparing|on\s+hold)"
                r"|(?:has|have)\s+(?:said|shown|showed|read)\s+['\"]?(?:processing|pending|preparing"
                r"|on\s+hold|awaiting\s+(?:shipment|dispatch|fulfil\w*))['\"]?\s+for"
                r"|(?:has|have|it's|its|it\s+has)\s+been\s+(?:stuck\s+(?:on|in|at)\s+)?['\"]?"
                r"(?:processing|pending|preparing|on\s+hold)['\"]?\s+(?:for|since)"
                r"|nothing\s+has\s+(?:been\s+)?shipped"
                r"|(?:got|received|sent\s+me)\s+(?:someone|somebody)\s+else'?s\s+(?:order|parcel|package)"
                # one thing sent for another ("you sent me a size 12 instead of the 10 I ordered")
                r"|(?:sent|gave|shipped)\s+(?:me|us)\s+(?:a|an|the)\s+[\w' -]{1,30}?\s+instead\s+of"
                r"|(?:gone|disappeared|vanished|missing)\s+from\s+my\s+(?:order\s+history|orders"
                r"|account)"
                # an order the user never placed ("I didn't order two of these", "someone must
                # have used my account")
                r"|(?:never|didn't|did\s+not)\s+(?:placed?|made|make|order(?:ed)?)\s+(?:this|that|these|the|two"
                r"|any|it)|wasn't\s+me\s+who\s+(?:ordered|placed)|someone\s+(?:else\s+)?(?:must\s+have\s+)?"
                r"(?:used|hacked|got\s+into)\s+my\s+account"
            ),
        ),
    ),
    (
        "logistics",
        _rx(
            r"(?:还?没有?|未)(?:签收|送到|送达|更新|动)|显示(?:已|被|本人)?签收|被(?:人)?签收|已经?(?:签收|送达|退回)"
            r"|签收了|丢了|丢件|丢失|弄丢|破损|损坏|摔坏|压坏|少了|少件|卡住|卡在|卡了(?=[0-9一两二三四五六七八九十几好多半]+(?:天|周|个?星期|个?月)|好久|很久)|停滞|不动了?|没动静|没消息"
            r"|退回(?:给)?(?:发件人|寄件人|商家|卖家)|原路(?:退|返)回|破了|碎了|摔碎|压碎|漏了|压扁"
            r"|延迟|延误|超时|被退回|退回|拒收|送错|待揽收|待收货|派送中|运输中|清关|海关|天没动"
            r"|(?:派送|配送|投递|送货)(?:失败|异常)"
            # a failed delivery blamed on the user ("说我不在家")
            r"|(?:说|显示|写着?|标(?:记|注)(?:成|为)?)(?:我)?(?:不在家|无人(?:在家|签收)|联系不上)"
            r"|已经?寄回(?:去)?了?|寄回去了|到(?:了)?(?:驿站|快递柜|丰巢|菜鸟驿站|自提点)|已出库|出库了"
            # not at the pickup point it was said to be left at ("我去驿站找了没有")
            r"|(?:驿站|快递柜|丰巢|自提点)[^，,。]{0,3}?(?:找了|问了|看了|翻了)?(?:也|都)?(?:没有|没找到|找不到"
            r"|没看到)",
            _w(
                r"(?:hasn't|has not|haven't|have not|didn't|did not|not yet|still not|never|isn't"
                r"|is not|wasn't|was not)\s+(?:been\s+)?(?:delivered|moved|updated|picked up)"
                # one part of a split order come ("got split into 2 packages and only 1 came")
                r"|only\s+(?:\d+|one|two|half|some|part)\s+(?:of\s+(?:them|the\s+\w+)\s+)?(?:came|arrived"
                r"|showed\s+up|turned\s+up|got\s+here)"
                r"|(?:was|been|got|is|are|were|has been|have been|shows?(?: as)?|marked(?: as)?"
                r"|says?)\s+(?:delivered|lost|damaged|broken|stuck|delayed|returned|missing"
                r"|in transit)|lost|damaged|stuck(?!\s+in\s+(?:meetings?|traffic|work|a\s+meeting"
                r"|the\s+office|bed))|delayed|missing|arrived (?:broken|damaged|late)"
                r"|(?:at|to) the wrong (?:house|address|door|building|flat|apartment)"
                r"|(?:went|sent|going|shipped|gone) back to (?:the )?(?:sender|seller|warehouse)"
                r"|return(?:ed|ing) to (?:the )?sender"
                r"|came\s+back\s+(?:to\s+(?:you|the\s+\w+)\s+)?as\s+undeliverable|undeliverable"
                r"|failed delivery|delivery (?:failed|attempt failed)"
                r"|['\"]?out for delivery['\"]?|crushed|dented|smashed"
                r"|marked\s+(?:it|my\s+\w+|the\s+\w+)\s+(?:as\s+)?['\"]?(?:delivery\s+attempted|attempted"
                r"|failed\s+delivery|recipient\s+(?:unavailable|not\s+(?:home|available|present))"
                r"|no\s*one\s+(?:home|available)|nobody\s+(?:home|in)|(?:customer\s+)?not\s+home"
                r"|business\s+closed"
                r"|address\s+not\s+found|refused)"
                r"|(?:has|have)\s+(?:said|shown|showed|read|been\s+(?:on|at))\s+['\"]?(?:label\s+created"
                r"|pre-?transit|shipping\s+label\s+created|awaiting\s+(?:collection|pickup|pick-up)"
                r"|in\s+transit|out\s+for\s+delivery|at\s+(?:the\s+)?(?:depot|hub|facility))['\"]?\s+for"
                r"|marked\s+(?:my\s+|the\s+)?(?:package|parcel|delivery)\s+as\s+['\"]?(?:delivered|refused"
                r"|returned|lost|undeliverable)"
                r"|sent\s+(?:the\s+|it\s+)?(?:return\s+)?back"
                r"|(?<![a-z])i\s+(?:already\s+|just\s+)?returned\s+(?:the|my|it|them)(?![a-z])|dropped\s+(?:it|the\s+\w+)\s+(?:off\s+)?at"
                r"\s+the\s+post\s+office"
                r"|(?:in|at|held (?:in|at)) customs"
                # a tracking number that leads nowhere ("the tracking number doesn't work")
                r"|tracking\s+(?:number|link|code|id|info)\s+(?:doesn't|does\s+not|isn't|won't|didn't"
                r"|still\s+doesn't)\s+(?:work|load|exist|show\s+anything|bring\s+anything\s+up)"
                r"|invalid\s+tracking\s+(?:number|code|id)"
                # a return the tracking says arrived ("tracking shows you received it")
                r"|(?:tracking|it)\s+(?:shows?|says)\s+(?:that\s+)?(?:you|you've|you\s+have"
                r"|the\s+warehouse|it\s+was)\s+(?:received|got|delivered)"
            ),
        ),
    ),
    (
        "generic",
        _rx(
            # ("找不到入口", "买不到" are no parcel not arriving)
            r"(?:还?没有?|未|(?<![找买看用想做办打听见抢])不)(?:到账|到|收到)|到账了|已经?到账"
            r"|到了(?![，,\s]*(?:就|直接|让|请|麻烦|帮|放|给我|打|叫|喊|别|不用|先|再))|\d+天(?:了|都)?(?:还)?没|还在等"
            r"|没(?:看到|见到|收到)钱|钱(?:还)?没到"
            r"|一直在等|等了.{0,4}还|(?<!发票|评价|认证|入驻)(?:还是|仍然|还在)(?:在)?(?:审核中|处理中)",
            _w(
                r"(?:hasn't|has not|haven't|have not|hadn't|didn't|did not|never|not yet|still not"
                r"|isn't|is not|wasn't|was not|aren't)\s+(?:yet\s+)?(?:been\s+)?(?:arrived?"
                r"|received|come|came|got|gotten|reached|showed up|shown up|credited|gone through"
                r"|landed|here)"
                r"|still (?:waiting|pending|processing|in transit)|never came|not arrived"
                r"|arrived(?!\s+(?:fine|safely|safe|ok|okay|well|perfectly|on\s+time|quickly|early"
                r"|in\s+(?:good|perfect|great|one)\s+(?:shape|condition|piece)|today\s+fine"
                r"|yesterday\s+fine))"
                r"|(?:isn't|is not|hasn't|has not|wasn't)\s+(?:been\s+)?(?:in|on|to)\s+my\s+"
                r"(?:account|card|bank)|nothing(?:'s| has)\s+(?:come|gone)\s+through"
                r"|nothing\s+(?:in|on)\s+my\s+(?:bank|account|card|paypal|statement)|came\s+through"
                r"|went\s+through"
                r"|(?:hasn't|has\s+not|haven't|didn't|did\s+not|not\s+yet)\s+(?:hit|reached|landed\s+in"
                r"|shown\s+up\s+in)\s+my\s+(?:account|card|bank)"
                r"|(?:was|been)\s+credited"
                r"|stuck\s+(?:on|at|in)(?!\s+(?:meetings?|traffic|work|a\s+meeting|the\s+office|bed))"
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
        re.compile(
            rf"(?:{label})\s*(?:号码?|编号|尾号|number|no\.?|id|#)?\s*(?:是|为|is|was)?\s*[:：#]?\s*"
            + _ID,
            re.I,
        ),
    )
    for prefix, label in (
        ("refund", r"退款单|退款|退货单|refund|return|rma|reference"),
        # a carrier's name before its number is a tracking number ("中通 75412398866")
        (
            "shipment",
            r"运单|快递单|物流单|快递|tracking|waybill|中通|圆通|申通|韵达|顺丰|极兔|德邦|百世"
            r"|邮政|EMS|UPS|FedEx|DHL|USPS|Royal Mail",
        ),
        ("payment", r"支付单|交易单|交易|流水|transaction|payment"),
        ("order", r"订单|单号|order"),
    )
)
_PREFIXED_ID = re.compile(
    r"(?<![A-Za-z0-9])(?P<p>ORD|RFD|RF|REF|PAY|TXN|SHP)[-_]?[A-Za-z0-9\-]*\d", re.I
)
#: A code said with no label: at least six digits among letters and dashes, no word around it.
_BARE_ID = re.compile(
    r"(?<![\w-])(?=(?:[A-Za-z-]*\d){6})[A-Za-z0-9][A-Za-z0-9-]{5,}[A-Za-z0-9](?![\w-])"
)
_DATE_LIKE = re.compile(r"\d{4}-\d{1,2}-\d{1,2}|\d{1,2}-\d{1,2}-\d{2,4}")
_HASHED_ID = re.compile(r"(?<![\w&])#\s?(?=[A-Za-z0-9\-_]{4,})" + _ID)
_PREFIX_KIND = {"ord": "order", "rfd": "refund", "rf": "refund", "ref": "refund", "pay": "payment"}
_PREFIX_KIND.update({"txn": "payment", "shp": "shipment"})
_ARRIVAL = re.compile(r"收到|到了|送到|送达|arrived|came|delivered|received|got it|never got")
_PARTLY = re.compile(r"只(?:收)?到|少了|少发|漏发|missing|only\s+(?:got|received)")
#: What the user sends back to be refunded ("退货", "the return", "returned the boots").
_A_RETURN = re.compile(
    r"退货|(?<![a-z])(?:the|my)\s+return(?![a-z])|(?<![a-z])returned\s+(?:the|my|it)"
)
_ALWAYS_LOGISTICS = re.compile(r"寄回|sent\s+(?:the\s+|it\s+)?(?:return\s+)?back|post\s+office")
_CLAIM_WISH = _rx(
    # (and what to do once it gets there: "快递到了给我打电话")
    r"希望|(?<![申邀])请|麻烦|能不能|可以|尽快|最好|帮我|到了?[^，,。]{0,6}?(?:的时候|时)?(?:就|再|先)?(?:给我(?:打|发|回|来)|打我|联系我|叫我)",
    _w(r"please|hope|could you|can you|make sure|asap"),
)
_MONEY_IN = re.compile(
    r"到账|credited|(?:hit|reached|back\s+(?:in|on))\s+my\s+(?:card|account|bank)"
)
_NEGATIVE_STATUS = re.compile(r"没|未|不|" + _w(r"not|never|hasn't|haven't|didn't|isn't|wasn't"))

# A correction of what the user said before: a mistake owned ("记错了", "I typed 38"), or a
# reference to an earlier statement ("上次说我用安卓", "I told you Eastern time before").
_CORRECTION = _rx(
    r"(?:记|打|填|说|写|搞|弄|输|报)错了?|更正|纠正"
    r"|(?:上次|之前|刚才|刚刚|以前|前面)(?:跟|和|给|对)?(?:你们?|您)?(?:说|讲|提|填|写|告诉|发)(?:的|过)?",
    _w(
        r"let me (?:fix|correct)|correction|to clarify|i meant|i typed|i mistyped"
        r"|typo(?:\s+earlier)?"
        r"|(?:gave|told|sent) you the wrong|my (?:mistake|bad)|scratch that"
        r"|never ?mind (?:the|what|that)"
    )
    + r"|\bupdate(?:\s+to\s+what\s+i\s+said)?\s*[:：]"
    + r"|\bi (?:told you|said|mentioned|wrote)\b.*\b(?:before|earlier|last time)\b"
    + r"|\bi (?:told you|said)\b.{0,60}\b(?:actually|anymore|now)\b"
    + r"|\b(?:i\s+got|got\s+my)\s+[\w ]{0,20}?wrong\b"
    # a number put right: "宝宝不是一岁，是一岁半了"
    + r"|不是[^，,。\s]{0,4}[一二两三四五六七八九十0-9][^，,。\s]{0,4}[，,\s]\s*(?:是|而是)",
)
# What a correction of an order, a parcel or a payment is about: a claim or a one-off, not a
# fact about the user.
_CORRECTION_BLOCK = _rx(
    r"订单|快递|包裹|退款|运单|物流|单号|地址|电话|手机号|邮箱"
    # what was said taken back, nothing in its place ("刚才说的过敏的事别记录了，我搞错了")
    r"|(?:别|不用|不要|甭)(?:再)?(?:记录|记|存|保存|备注)",
    _w(
        r"orders?|package|parcel|refund|tracking|payment|address|phone number|e-?mail address"
        r"|(?:don't|do not|no need to)\s+(?:save|record|keep|note|store)|forget\s+(?:it|that|about)"
    ),
)


def _correction(norm: str) -> bool:
    """A sentence that corrects what the user said of themselves before ("我女儿不是4岁，是5
    岁，上次填错了", "I gave you the wrong birthday for my wife - it's June 14"): taken whole,
    as its parts alone keep the old value, or nothing."""
    if not _CORRECTION.search(norm) or _CORRECTION_BLOCK.search(norm):
        return False
    # a mistake owned, nothing said in its place ("我搞错了", "my bad, wrong info")
    return len(_OWNED.sub("", norm)) >= 3


#: A mistake owned, and the words around it that say nothing more.
_OWNED = re.compile(
    r"[\W_]|(?:刚才|之前|上次|前面)?(?:搞|说|填|写|打|记|弄)错(?:字)?了?|不好意思|抱歉|我|了|啊|吧|呀|哈"
    r"|笑死|sorry|my\s+bad|(?:i\s+was|that\s+was)\s+wrong|wrong\s+info|typo|oops|lol|haha"
)


# --------------------------------------------------------------------------------------------
# Readers


#: A part of the building out of order ("the buzzer is broken today"): how a courier gets in.
_FIXTURE_BROKEN = re.compile(
    r"(?:buzzer|doorbell|bell|intercom|lift|elevator|gate|lock|keypad|entry\s*phone|door\s+code)"
    r"\s+(?:is|was|'s|are|were)\s+(?:\w+\s+)?broken|门铃坏|电梯坏|门禁坏"
)


def _entities(norm: str) -> list[str]:
    """The business entities a text names (orders, payments, parcels, refunds), in
    `_ENTITY`'s order."""
    return [name for name, rx in _ENTITY if rx.search(norm)]


#: An order or a parcel said to be someone else's, by a pronoun ("帮我弟问一下，他那个订单怎么还没
#:发货", "her parcel never came"): their claim, asked on their behalf.
_THEIRS = re.compile(
    r"(?:他|她|他们|她们)(?:那个|这个|的)(?:订单|快递|包裹|退款|单子)"
    r"|(?<![a-z])(?:his|her|their)\s+(?:order|parcel|package|refund|delivery)(?![a-z])"
)


#: A status guessed, not said ("应该还没发货吧"), or what the user asks the shop to do, a noun
#: after it ("just refund the missing item"): no claim.
_ASKED_OR_GUESSED = re.compile(
    r"^\s*(?:应该|估计|大概|可能|也许)[^，,。！!]{0,16}吧[。.~～]?\s*$"
    r"|^\s*(?:(?:just|then|so|pls|please|kindly)\s+)*(?:refund|resend|re-send|replace|reship"
    r"|cancel)\s+(?:me|it|the|my|this|that|both|them)(?![a-z])"
    # what happened to deliveries before, more than once: a history, no order's status
    # ("平时送来家里没人签收的，之前有几次都被退回去了")
    r"|(?:之前|以前|过去)有(?:过)?(?:好)?几次|(?<![a-z])(?:a\s+few|several|many)\s+times\s+before"
    r"(?![a-z])"
    # a check asked for before it ships ("发货前检查一下有没有破损"), other couriers' record
    # ("别的快递老丢件")
    r"|(?:检查|看看|查看|确认)(?:一下)?(?:有没有|是否|是不是)|(?:别的|其他|其它)快递"
)


_BROKE = r"(?:cracked|broken|smashed|shattered|chipped)"
_GOODS = (
    r"(?:screen|lid|jug|glass|base|handle|mug|lens|display|bowl|plate|lamp|cup|bottle|vase|tablet"
    r"|phone|laptop|mirror|frame)"
)
#: The thing bought, broken on arrival ("the blender came with a cracked jug", "收到的杯子碎了").
_GOODS_BROKEN = re.compile(
    rf"(?<![a-z])(?:(?:arrived|came)\s+(?:today\s+)?with\s+(?:a|an|the)\s+(?:\w+\s+)?{_BROKE}"
    rf"|{_BROKE}\s+{_GOODS}|{_GOODS}\s+(?:\w+\s+){{0,3}}?(?:is|was|are|were)\s+{_BROKE}"
    rf"|arrived\s+(?:today\s+)?with\s+(?:the|a|an)\s+\w+\s+{_BROKE})(?![a-z])"
    r"|收到(?:的|时|后)?[^，,。]{0,8}?(?:碎了|裂了|坏了|破了|有裂痕|裂开了)"
)
#: The box it came in damaged: the parcel's ("box crushed, mug broken", "包裹破了").
_BOX_DAMAGED = re.compile(
    r"(?<![a-z])(?:box|package|parcel|packaging|carton)\s+(?:\w+\s+)?(?:was\s+|arrived\s+|is\s+)?"
    r"(?:crushed|damaged|torn|broken|ripped|soaked)|包裹破|(?:箱子|外包装|盒子|纸箱)(?:都)?(?:破|烂|压)"
)


#: A status that names what the order went wrong in, and so the order ("I received the wrong
#: colour", "收到的尺码不对").
_ORDER_STATE = re.compile(
    r"wrong\s+(?:size|colou?r)|颜色|尺码|码数|型号|款式|processing|pending|preparing|on\s+hold"
)


def _claim(raw: str, norm: str, named_before: Sequence[str] = ()) -> Candidate | None:
    """A claim about an order, a payment, a parcel or a refund: a status said of an entity the
    text names, or, when it names none, one an earlier clause of its sentence named
    (`named_before`: "订单号20240611883，商家自己把我的单取消了"). The entity named decides what
    the claim is about ("my order's been stuck on 'processing'" is about the order)."""
    if not norm.strip():
        return None
    entities = _entities(norm) or list(named_before)
    if entities == ["payment"] and "refund" in named_before and _MONEY_IN.search(norm):
        # money arriving, after a refund was named ("退款申请提交一周了，钱还没到账"): the refund's
        entities = ["refund"]
    status: str | None = None
    status_text = ""
    for name, rx in _STATUS:
        m = rx.search(norm)
        if m is not None:
            status, status_text = name, m.group()
            break
    goods = _GOODS_BROKEN.search(norm)
    if (
        goods is not None
        and status in (None, "logistics", "generic")
        and not _BOX_DAMAGED.search(norm)
    ):
        # the thing bought arrived broken, not its box ("收到的杯子碎了", "arrived with the screen
        # cracked"): what came of the order
        entities, status, status_text = ["order"], "order", goods.group()
    if not entities and status == "order" and _ORDER_STATE.search(status_text):
        # the wrong size or colour received, or an order's state ("it's been 'processing'
        # since Tuesday"): what came of the order
        entities = ["order"]
    if status is None or not entities or _THEIRS.search(norm):
        return None
    if "broken" in status_text and _FIXTURE_BROKEN.search(norm):
        return None  # the buzzer is broken, not the parcel: how to get in, no claim
    if _ALWAYS_LOGISTICS.search(status_text) and _A_RETURN.search(norm):
        status = "refund"  # a return sent back is the refund's first step ("退货已经寄回去了")
    elif (_ALWAYS_LOGISTICS.search(status_text) and "refund" not in entities) or (
        status == "generic"
        and entities == ["order"]
        and _ARRIVAL.search(status_text)
        and not _PARTLY.search(norm)
    ):
        # an order arrived (or not) is its parcel's ("订单…已经收到了"), and so is a return sent
        # back (but a refund waited for is the refund's); a part missing is the order's
        status = "logistics"
    elif status not in entities:
        status = entities[0]
    question = bool(_Q_START.match(norm.strip()) or _Q_ANY.search(norm.rstrip("?？ ")))
    # ("order status says processing for 10 days now??": exasperation, not a question)
    asked = norm.rstrip().endswith(("?", "？")) and not re.search(r"[?？]{2,}\s*$", norm)
    if (question or asked) and not _WHY.search(norm):
        return None
    if _CLAIM_WISH.search(norm) and not _NEGATIVE_STATUS.search(status_text):
        return None
    if _ASKED_OR_GUESSED.search(norm):
        return None
    if not said_to_be_so(norm, status_text):
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


#: What the user did, said against what the shop shows ("我明明付款了", "I already paid but").
_CONTRARY = re.compile(r"明明|分明|(?<![a-z])i\s+(?:already|definitely)\s+[a-z]+ed(?![a-z])")


def _claimed_in_sentence(claim: Candidate, sentence: str) -> Candidate:
    """A claim made in one clause of a sentence that names what it is about in another
    ("单号YT88801234，物流信息三天没更新了", "My order got cancelled, #A77812"): about that
    order, parcel or payment (not `…:unknown`), its content the sentence that says so."""
    if claim.key in _KEY_OF.values() and (
        not _entities(fold(claim.content)) or _CONTRARY.search(fold(sentence))
    ):
        # its clause says what happened, an earlier one what it happened to ("退款说好三天到，
        # 现在一周了还没到") or what the user did that it contradicts ("我明明付款了，怎么订单还
        # 显示待支付"): the sentence says both
        claim = claim.model_copy(update={"content": normalize_whitespace(_clean(sentence))})
    said = fold(sentence)
    if (
        claim.key == _KEY_OF["refund"]
        and _ALWAYS_LOGISTICS.search(fold(claim.content))
        and names_an_id(sentence)
        and not _ENTITY[0][1].search(said)
    ):
        # a return sent back, said with its tracking number and nothing of the money ("退货已经
        # 寄回去了，单号…"): the parcel's
        claim = claim.model_copy(
            update={"key": _KEY_OF["logistics"], "subject_ref": "shipment:unknown"}
        )
    return _about_the_id_in(claim, sentence)


def _claimed_in_message(claim: Candidate, text: str) -> Candidate:
    """A claim whose sentence names no id, in a message that names one in another sentence
    ("订单被无故取消了？我没点取消啊，订单号 3390217", "Parcel went back to the sender?? tracking
    LX552019873CN"): as `_claimed_in_sentence`, over the whole (short) message."""
    return claim if len(text) > 200 else _about_the_id_in(claim, text)


def _about_the_id_in(claim: Candidate, text: str) -> Candidate:
    """A claim about an unknown order, parcel or payment made about the one `text` names, its
    content `text`; unchanged when `text` names none."""
    if claim.key is None or not (claim.subject_ref or "").endswith(":unknown"):
        return claim
    entity = next((e for e, key in _KEY_OF.items() if key == claim.key), None)
    if entity is None:
        return claim
    subject = _subject(text, entity)
    if subject.endswith(":unknown"):
        return claim
    return claim.model_copy(
        update={"subject_ref": subject, "content": normalize_whitespace(_clean(text))}
    )


def names_an_id(raw: str) -> bool:
    """Whether a text names an order's, a parcel's, a payment's or a refund's id."""
    return not _subject(raw, "order").endswith(":unknown")


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
    hashed = _HASHED_ID.search(raw)  # "#A77812": the id of what the claim is about
    if hashed is not None:
        return f"{_ENTITY_PREFIX[entity]}:{hashed.group('id').rstrip('-_')}"
    bare = next((m for m in _BARE_ID.finditer(raw) if not _DATE_LIKE.fullmatch(m.group())), None)
    if bare is not None:  # "It's 1Z999AA10123456784": a long code said alone
        return f"{_ENTITY_PREFIX[entity]}:{bare.group()}"
    return f"{_ENTITY_PREFIX[entity]}:unknown"
