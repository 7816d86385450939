import JSZip from 'jszip';
import { describe, expect, it } from 'vitest';
import { encodeGbk } from '../../../../../tools/fake-gateways/gbk.ts';
import { parseAlipayBillCsv, readAlipayBillZip } from './alipay/bill.ts';
import { parseWechatBill } from './wechat-bill.ts';

// The bill parsers on the real services' published samples (not the fakes' own output): WeChat Pay's
// fixture from wechatpay-axios-plugin (tests/fixtures/bill.ALL.csv), Alipay's lines from public code.

const WECHAT_SAMPLE = `\uFEFF交易时间,公众账号ID,商户号,特约商户号,设备号,微信订单号,商户订单号,用户标识,交易类型,交易状态,付款银行,货币种类,应结订单金额,代金券金额,微信退款单号,商户退款单号,退款金额,充值券退款金额,退款类型,退款状态,商品名称,商户数据包,手续费,费率,订单金额,申请退款金额,费率备注
\`2019-02-19 01:52:32,\`wxab8acd895ab1638a,\`1921000401,\`0,\`,\`4200000263201902167700134902,\`autotest_20190219015232_89201,\`wxab8acb865bb1637e,\`NATIVE,\`SUCCESS,\`OTHERS,\`CNY,\`0.03,\`0.00,\`0,\`0,\`0.00,\`0.00,\`,\`,\`autotest,\`,\`0.01000,\`39.00%,\`0.03,\`0.00,\`
\`2019-02-19 05:01:46,\`wxab8acd895ab1638a,\`1921000401,\`0,\`harryma007,\`4200000263201902167700134212,\`autotest_20190216081946_82335,\`oHkLxtx0vUqe-18p_AXTZ1innxkCY,\`JSAPI,\`REFUND,\`OTHERS,\`CNY,\`0.00,\`0.00,\`50000709672019011908420787722,\`REF4200000263201902167700963919,\`0.01,\`0.00,\`ORIGINAL,\`SUCCESS,\`系统拨测-cheeryin-test_micropay_succ,\`,\`0.00000,\`39.00%,\`0.00,\`0.01,\`
总交易单数,应结订单总金额,退款总金额,充值券退款总金额,手续费总金额,订单总金额,申请退款金额
\`45.0,\`0.47,\`0.14,\`0.0,\`0.08,\`0.47,\`0.14
`;

const WECHAT_ROWS = [
  { kind: 'payment', orderNo: 'autotest_20190219015232_89201', gatewayTradeNo: '4200000263201902167700134902', amountFen: 3, at: Date.UTC(2019, 1, 18, 17, 52, 32) },
  { kind: 'refund', orderNo: 'autotest_20190216081946_82335', refundNo: 'REF4200000263201902167700963919', gatewayTradeNo: '50000709672019011908420787722', amountFen: 1, at: Date.UTC(2019, 1, 18, 21, 1, 46) },
];

describe("WeChat Pay's trade bill", () => {
  const expected = WECHAT_ROWS;
  it('the same without a BOM, with CRLF lines, and a comma inside 商品名称', () => {
    const text = WECHAT_SAMPLE.slice(1).replaceAll('\n', '\r\n').replace('`autotest,', '`auto,test,');
    expect(parseWechatBill(text)).toEqual(expected);
  });
  it('an empty text is an empty bill; a file that is not a trade bill is an error', () => {
    expect(parseWechatBill('')).toEqual([]);
    expect(() => parseWechatBill('a,b,c\n`1,`2,`3')).toThrow(/not a WeChat Pay trade bill/);
  });
});

const ALIPAY_ROWS = [
  { kind: 'payment', orderNo: 'cd6ece976b514130977cb06048359684', gatewayTradeNo: '2017083121001004720299453898', amountFen: 2000, at: Date.UTC(2017, 7, 30, 16, 6, 15) },
  { kind: 'refund', orderNo: 'cd6ece976b514130977cb06048359684', refundNo: 'R2017083100001', gatewayTradeNo: '2017083121001004720299453898', amountFen: 350, at: Date.UTC(2017, 7, 31, 2, 0, 0) },
];

const ALIPAY_SAMPLE = `#支付宝业务明细查询
#账号：[20885212319120680156]
#起始日期：[2017年08月31日 00:00:00]   终止日期：[2017年09月01日 00:00:00]
#-----------------------------------------业务明细列表----------------------------------------
支付宝交易号,商户订单号,业务类型,商品名称,创建时间,完成时间,门店编号,门店名称,操作员,终端号,对方账户,订单金额（元）,商家实收（元）,支付宝红包（元）,集分宝（元）,支付宝优惠（元）,商家优惠（元）,券核销金额（元）,券名称,商家红包消费金额（元）,卡消费金额（元）,退款批次号/请求号,服务费（元）,分润（元）,备注
2017083121001004720299453898\t,cd6ece976b514130977cb06048359684\t,交易\t,支付宝APP支付,2017-08-31 00:06:14,2017-08-31 00:06:15,\t,\t,\t,\t,*杨(137****2600)\t,20.00,20.00,0.00,0.00,0.00,0.00,0.00,,0.00,0.00,\t,0.00,0.00,
2017083121001004720299453898\t,cd6ece976b514130977cb06048359684\t,退款\t,支付宝APP支付,2017-08-31 00:06:14,2017-08-31 10:00:00,\t,\t,\t,\t,*杨(137****2600)\t,-3.50,-3.50,0.00,0.00,0.00,0.00,0.00,,0.00,0.00,R2017083100001\t,0.00,0.00,
#-----------------------------------------业务明细列表结束------------------------------------
#交易合计：1笔，商家实收共20.00元，商家优惠共0.00元
#退款合计：1笔，商家实收退款共-3.50元，商家优惠退款共0.00元
#导出时间：[2021年10月22日 06:27:10]`;

describe("Alipay's trade bill", () => {
  const expected = ALIPAY_ROWS;
  it('reads the zip of GBK files (names GBK too) and skips the (汇总) file', async () => {
    const zip = new JSZip();
    zip.file('20885212319120680156_20170831_业务明细.csv', encodeGbk(ALIPAY_SAMPLE), { binary: true });
    zip.file('20885212319120680156_20170831_业务明细(汇总).csv', encodeGbk('#支付宝业务汇总查询\n门店编号,门店名称\n,,'), { binary: true });
    const bytes = await zip.generateAsync({ type: 'nodebuffer', encodeFileName: (name) => encodeGbk(name).toString('latin1') });
    expect(bytes.includes(encodeGbk('业务明细'))).toBe(true); // the entry names in GBK (JSZip adds its Unicode path field beside)
    expect(await readAlipayBillZip(bytes)).toEqual(expected);
  });
});

describe.each([
  { bill: 'WeChat Pay: BOM, backticks, the REFUND row, the summary rows left out; Beijing times', read: () => parseWechatBill(WECHAT_SAMPLE), rows: WECHAT_ROWS },
  { bill: "Alipay: # comments, trailing tabs, a negative refund as positive fen", read: () => parseAlipayBillCsv(ALIPAY_SAMPLE), rows: ALIPAY_ROWS },
])('the published sample of $bill', ({ read, rows }) => {
  it('reads to these rows', () => expect(read()).toEqual(rows));
});
