import type { SiteFile } from '@coffer/contracts/site-file';

/**
 * What a sandbox's public pages say where no site file is given: what the installation is,
 * in each of the four languages, as an operator's file would say it (its `translations`).
 * It names nobody, counts nothing and dates nothing (PRODUCT.md, honesty rule 4): the
 * sections about who runs an institution (who we are, leadership, contact) stay out.
 */
export const sandboxSampleSite: SiteFile = {
  institutionName: 'Coffer',
  tagline: 'A sandbox of Coffer: try every page with test money. Nothing here is a real account.',
  story: `This installation is a sandbox of Coffer, open-source banking software. Its customers, staff and money are made up for trying it out: sign up, send test money, apply for a loan, then sign in as the demo admin and see the other side.

An operator who runs Coffer for real writes their own story here, in the site file (COFFER_SITE_FILE), in each language they offer.`,
  mission:
    'Let anyone try a whole bank before they trust one: every page, every rule and every fee, with money that is not real.',
  vision: 'Banking software anyone can read, run and check.',
  translations: {
    de: {
      tagline:
        'Eine Sandbox von Coffer: Probieren Sie jede Seite mit Testgeld aus. Nichts hier ist ein echtes Konto.',
      story: `Diese Installation ist eine Sandbox von Coffer, einer Open-Source-Banksoftware. Ihre Kundinnen und Kunden, ihr Personal und ihr Geld sind zum Ausprobieren erfunden: Registrieren Sie sich, senden Sie Testgeld, beantragen Sie einen Kredit und melden Sie sich dann als Demo-Administrator an, um die andere Seite zu sehen.

Wer Coffer wirklich betreibt, schreibt hier seine eigene Geschichte: in der Site-Datei (COFFER_SITE_FILE), in jeder Sprache, die er anbietet.`,
      mission:
        'Jede und jeder soll eine ganze Bank ausprobieren können, bevor sie einer vertrauen: jede Seite, jede Regel und jede Gebühr, mit Geld, das nicht echt ist.',
      vision: 'Banksoftware, die alle lesen, betreiben und prüfen können.',
    },
    ja: {
      tagline:
        'Coffer のサンドボックスです。テスト用のお金ですべての画面を試せます。ここにある口座はどれも本物ではありません。',
      story: `このサイトは、オープンソースの銀行ソフトウェア Coffer のサンドボックスです。顧客、スタッフ、お金は、試すために作られた架空のものです。登録して、テスト用のお金を送り、ローンを申し込んだあと、デモ管理者としてサインインして、運営側の画面もご覧ください。

Coffer を実際に運営する事業者は、ここに自分たちの歩みを書きます。サイトファイル（COFFER_SITE_FILE）に、提供する言語ごとに記載します。`,
      mission:
        '銀行を信頼する前に、銀行のすべてを試せるように。すべての画面、すべてのルール、すべての手数料を、本物ではないお金で。',
      vision: '誰もが読み、運用し、確かめられる銀行ソフトウェア。',
    },
    ar: {
      tagline: 'بيئة تجريبية من Coffer: جرّب كل صفحة بأموال تجريبية. لا يوجد هنا أي حساب حقيقي.',
      story: `هذا التثبيت بيئة تجريبية من Coffer، وهو برنامج مصرفي مفتوح المصدر. العملاء والموظفون والأموال فيه مختلَقة للتجربة: أنشئ حسابًا، وأرسل أموالًا تجريبية، وقدّم طلب قرض، ثم سجّل الدخول بصفتك المسؤول التجريبي لترى الجانب الآخر.

الجهة التي تشغّل Coffer فعليًا تكتب قصتها هنا، في ملف الموقع (COFFER_SITE_FILE)، بكل لغة تقدّمها.`,
      mission:
        'أن يتمكن أي شخص من تجربة مصرف كامل قبل أن يثق بأي مصرف: كل صفحة وكل قاعدة وكل رسم، بأموال غير حقيقية.',
      vision: 'برنامج مصرفي يستطيع أي شخص قراءته وتشغيله والتحقق منه.',
    },
  },
};
