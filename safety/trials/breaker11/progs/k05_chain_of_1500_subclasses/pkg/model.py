from pkg.base import Base


class L0(Base):
    pass


class L1(L0):
    pass


class L2(L1):
    pass


class L3(L2):
    pass


class L4(L3):
    pass


class L5(L4):
    pass


class L6(L5):
    pass


class L7(L6):
    pass


class L8(L7):
    pass


class L9(L8):
    pass


class L10(L9):
    pass


class L11(L10):
    pass


class L12(L11):
    pass


class L13(L12):
    pass


class L14(L13):
    pass


class L15(L14):
    pass


class L16(L15):
    pass


class L17(L16):
    pass


class L18(L17):
    pass


class L19(L18):
    pass


class L20(L19):
    pass


class L21(L20):
    pass


class L22(L21):
    pass


class L23(L22):
    pass


class L24(L23):
    pass


class L25(L24):
    pass


class L26(L25):
    pass


class L27(L26):
    pass


class L28(L27):
    pass


class L29(L28):
    pass


class L30(L29):
    pass


class L31(L30):
    pass


class L32(L31):
    pass


class L33(L32):
    pass


class L34(L33):
    pass


class L35(L34):
    pass


class L36(L35):
    pass


class L37(L36):
    pass


class L38(L37):
    pass


class L39(L38):
    pass


class L40(L39):
    pass


class L41(L40):
    pass


class L42(L41):
    pass


class L43(L42):
    pass


class L44(L43):
    pass


class L45(L44):
    pass


class L46(L45):
    pass


class L47(L46):
    pass


class L48(L47):
    pass


class L49(L48):
    pass


class L50(L49):
    pass


class L51(L50):
    pass


class L52(L51):
    pass


class L53(L52):
    pass


class L54(L53):
    pass


class L55(L54):
    pass


class L56(L55):
    pass


class L57(L56):
    pass


class L58(L57):
    pass


class L59(L58):
    pass


class L60(L59):
    pass


class L61(L60):
    pass


class L62(L61):
    pass


class L63(L62):
    pass


class L64(L63):
    pass


class L65(L64):
    pass


class L66(L65):
    pass


class L67(L66):
    pass


class L68(L67):
    pass


class L69(L68):
    pass


class L70(L69):
    pass


class L71(L70):
    pass


class L72(L71):
    pass


class L73(L72):
    pass


class L74(L73):
    pass


class L75(L74):
    pass


class L76(L75):
    pass


class L77(L76):
    pass


class L78(L77):
    pass


class L79(L78):
    pass


class L80(L79):
    pass


class L81(L80):
    pass


class L82(L81):
    pass


class L83(L82):
    pass


class L84(L83):
    pass


class L85(L84):
    pass


class L86(L85):
    pass


class L87(L86):
    pass


class L88(L87):
    pass


class L89(L88):
    pass


class L90(L89):
    pass


class L91(L90):
    pass


class L92(L91):
    pass


class L93(L92):
    pass


class L94(L93):
    pass


class L95(L94):
    pass


class L96(L95):
    pass


class L97(L96):
    pass


class L98(L97):
    pass


class L99(L98):
    pass


class L100(L99):
    pass


class L101(L100):
    pass


class L102(L101):
    pass


class L103(L102):
    pass


class L104(L103):
    pass


class L105(L104):
    pass


class L106(L105):
    pass


class L107(L106):
    pass


class L108(L107):
    pass


class L109(L108):
    pass


class L110(L109):
    pass


class L111(L110):
    pass


class L112(L111):
    pass


class L113(L112):
    pass


class L114(L113):
    pass


class L115(L114):
    pass


class L116(L115):
    pass


class L117(L116):
    pass


class L118(L117):
    pass


class L119(L118):
    pass


class L120(L119):
    pass


class L121(L120):
    pass


class L122(L121):
    pass


class L123(L122):
    pass


class L124(L123):
    pass


class L125(L124):
    pass


class L126(L125):
    pass


class L127(L126):
    pass


class L128(L127):
    pass


class L129(L128):
    pass


class L130(L129):
    pass


class L131(L130):
    pass


class L132(L131):
    pass


class L133(L132):
    pass


class L134(L133):
    pass


class L135(L134):
    pass


class L136(L135):
    pass


class L137(L136):
    pass


class L138(L137):
    pass


class L139(L138):
    pass


class L140(L139):
    pass


class L141(L140):
    pass


class L142(L141):
    pass


class L143(L142):
    pass


class L144(L143):
    pass


class L145(L144):
    pass


class L146(L145):
    pass


class L147(L146):
    pass


class L148(L147):
    pass


class L149(L148):
    pass


class L150(L149):
    pass


class L151(L150):
    pass


class L152(L151):
    pass


class L153(L152):
    pass


class L154(L153):
    pass


class L155(L154):
    pass


class L156(L155):
    pass


class L157(L156):
    pass


class L158(L157):
    pass


class L159(L158):
    pass


class L160(L159):
    pass


class L161(L160):
    pass


class L162(L161):
    pass


class L163(L162):
    pass


class L164(L163):
    pass


class L165(L164):
    pass


class L166(L165):
    pass


class L167(L166):
    pass


class L168(L167):
    pass


class L169(L168):
    pass


class L170(L169):
    pass


class L171(L170):
    pass


class L172(L171):
    pass


class L173(L172):
    pass


class L174(L173):
    pass


class L175(L174):
    pass


class L176(L175):
    pass


class L177(L176):
    pass


class L178(L177):
    pass


class L179(L178):
    pass


class L180(L179):
    pass


class L181(L180):
    pass


class L182(L181):
    pass


class L183(L182):
    pass


class L184(L183):
    pass


class L185(L184):
    pass


class L186(L185):
    pass


class L187(L186):
    pass


class L188(L187):
    pass


class L189(L188):
    pass


class L190(L189):
    pass


class L191(L190):
    pass


class L192(L191):
    pass


class L193(L192):
    pass


class L194(L193):
    pass


class L195(L194):
    pass


class L196(L195):
    pass


class L197(L196):
    pass


class L198(L197):
    pass


class L199(L198):
    pass


class L200(L199):
    pass


class L201(L200):
    pass


class L202(L201):
    pass


class L203(L202):
    pass


class L204(L203):
    pass


class L205(L204):
    pass


class L206(L205):
    pass


class L207(L206):
    pass


class L208(L207):
    pass


class L209(L208):
    pass


class L210(L209):
    pass


class L211(L210):
    pass


class L212(L211):
    pass


class L213(L212):
    pass


class L214(L213):
    pass


class L215(L214):
    pass


class L216(L215):
    pass


class L217(L216):
    pass


class L218(L217):
    pass


class L219(L218):
    pass


class L220(L219):
    pass


class L221(L220):
    pass


class L222(L221):
    pass


class L223(L222):
    pass


class L224(L223):
    pass


class L225(L224):
    pass


class L226(L225):
    pass


class L227(L226):
    pass


class L228(L227):
    pass


class L229(L228):
    pass


class L230(L229):
    pass


class L231(L230):
    pass


class L232(L231):
    pass


class L233(L232):
    pass


class L234(L233):
    pass


class L235(L234):
    pass


class L236(L235):
    pass


class L237(L236):
    pass


class L238(L237):
    pass


class L239(L238):
    pass


class L240(L239):
    pass


class L241(L240):
    pass


class L242(L241):
    pass


class L243(L242):
    pass


class L244(L243):
    pass


class L245(L244):
    pass


class L246(L245):
    pass


class L247(L246):
    pass


class L248(L247):
    pass


class L249(L248):
    pass


class L250(L249):
    pass


class L251(L250):
    pass


class L252(L251):
    pass


class L253(L252):
    pass


class L254(L253):
    pass


class L255(L254):
    pass


class L256(L255):
    pass


class L257(L256):
    pass


class L258(L257):
    pass


class L259(L258):
    pass


class L260(L259):
    pass


class L261(L260):
    pass


class L262(L261):
    pass


class L263(L262):
    pass


class L264(L263):
    pass


class L265(L264):
    pass


class L266(L265):
    pass


class L267(L266):
    pass


class L268(L267):
    pass


class L269(L268):
    pass


class L270(L269):
    pass


class L271(L270):
    pass


class L272(L271):
    pass


class L273(L272):
    pass


class L274(L273):
    pass


class L275(L274):
    pass


class L276(L275):
    pass


class L277(L276):
    pass


class L278(L277):
    pass


class L279(L278):
    pass


class L280(L279):
    pass


class L281(L280):
    pass


class L282(L281):
    pass


class L283(L282):
    pass


class L284(L283):
    pass


class L285(L284):
    pass


class L286(L285):
    pass


class L287(L286):
    pass


class L288(L287):
    pass


class L289(L288):
    pass


class L290(L289):
    pass


class L291(L290):
    pass


class L292(L291):
    pass


class L293(L292):
    pass


class L294(L293):
    pass


class L295(L294):
    pass


class L296(L295):
    pass


class L297(L296):
    pass


class L298(L297):
    pass


class L299(L298):
    pass


class L300(L299):
    pass


class L301(L300):
    pass


class L302(L301):
    pass


class L303(L302):
    pass


class L304(L303):
    pass


class L305(L304):
    pass


class L306(L305):
    pass


class L307(L306):
    pass


class L308(L307):
    pass


class L309(L308):
    pass


class L310(L309):
    pass


class L311(L310):
    pass


class L312(L311):
    pass


class L313(L312):
    pass


class L314(L313):
    pass


class L315(L314):
    pass


class L316(L315):
    pass


class L317(L316):
    pass


class L318(L317):
    pass


class L319(L318):
    pass


class L320(L319):
    pass


class L321(L320):
    pass


class L322(L321):
    pass


class L323(L322):
    pass


class L324(L323):
    pass


class L325(L324):
    pass


class L326(L325):
    pass


class L327(L326):
    pass


class L328(L327):
    pass


class L329(L328):
    pass


class L330(L329):
    pass


class L331(L330):
    pass


class L332(L331):
    pass


class L333(L332):
    pass


class L334(L333):
    pass


class L335(L334):
    pass


class L336(L335):
    pass


class L337(L336):
    pass


class L338(L337):
    pass


class L339(L338):
    pass


class L340(L339):
    pass


class L341(L340):
    pass


class L342(L341):
    pass


class L343(L342):
    pass


class L344(L343):
    pass


class L345(L344):
    pass


class L346(L345):
    pass


class L347(L346):
    pass


class L348(L347):
    pass


class L349(L348):
    pass


class L350(L349):
    pass


class L351(L350):
    pass


class L352(L351):
    pass


class L353(L352):
    pass


class L354(L353):
    pass


class L355(L354):
    pass


class L356(L355):
    pass


class L357(L356):
    pass


class L358(L357):
    pass


class L359(L358):
    pass


class L360(L359):
    pass


class L361(L360):
    pass


class L362(L361):
    pass


class L363(L362):
    pass


class L364(L363):
    pass


class L365(L364):
    pass


class L366(L365):
    pass


class L367(L366):
    pass


class L368(L367):
    pass


class L369(L368):
    pass


class L370(L369):
    pass


class L371(L370):
    pass


class L372(L371):
    pass


class L373(L372):
    pass


class L374(L373):
    pass


class L375(L374):
    pass


class L376(L375):
    pass


class L377(L376):
    pass


class L378(L377):
    pass


class L379(L378):
    pass


class L380(L379):
    pass


class L381(L380):
    pass


class L382(L381):
    pass


class L383(L382):
    pass


class L384(L383):
    pass


class L385(L384):
    pass


class L386(L385):
    pass


class L387(L386):
    pass


class L388(L387):
    pass


class L389(L388):
    pass


class L390(L389):
    pass


class L391(L390):
    pass


class L392(L391):
    pass


class L393(L392):
    pass


class L394(L393):
    pass


class L395(L394):
    pass


class L396(L395):
    pass


class L397(L396):
    pass


class L398(L397):
    pass


class L399(L398):
    pass


class L400(L399):
    pass


class L401(L400):
    pass


class L402(L401):
    pass


class L403(L402):
    pass


class L404(L403):
    pass


class L405(L404):
    pass


class L406(L405):
    pass


class L407(L406):
    pass


class L408(L407):
    pass


class L409(L408):
    pass


class L410(L409):
    pass


class L411(L410):
    pass


class L412(L411):
    pass


class L413(L412):
    pass


class L414(L413):
    pass


class L415(L414):
    pass


class L416(L415):
    pass


class L417(L416):
    pass


class L418(L417):
    pass


class L419(L418):
    pass


class L420(L419):
    pass


class L421(L420):
    pass


class L422(L421):
    pass


class L423(L422):
    pass


class L424(L423):
    pass


class L425(L424):
    pass


class L426(L425):
    pass


class L427(L426):
    pass


class L428(L427):
    pass


class L429(L428):
    pass


class L430(L429):
    pass


class L431(L430):
    pass


class L432(L431):
    pass


class L433(L432):
    pass


class L434(L433):
    pass


class L435(L434):
    pass


class L436(L435):
    pass


class L437(L436):
    pass


class L438(L437):
    pass


class L439(L438):
    pass


class L440(L439):
    pass


class L441(L440):
    pass


class L442(L441):
    pass


class L443(L442):
    pass


class L444(L443):
    pass


class L445(L444):
    pass


class L446(L445):
    pass


class L447(L446):
    pass


class L448(L447):
    pass


class L449(L448):
    pass


class L450(L449):
    pass


class L451(L450):
    pass


class L452(L451):
    pass


class L453(L452):
    pass


class L454(L453):
    pass


class L455(L454):
    pass


class L456(L455):
    pass


class L457(L456):
    pass


class L458(L457):
    pass


class L459(L458):
    pass


class L460(L459):
    pass


class L461(L460):
    pass


class L462(L461):
    pass


class L463(L462):
    pass


class L464(L463):
    pass


class L465(L464):
    pass


class L466(L465):
    pass


class L467(L466):
    pass


class L468(L467):
    pass


class L469(L468):
    pass


class L470(L469):
    pass


class L471(L470):
    pass


class L472(L471):
    pass


class L473(L472):
    pass


class L474(L473):
    pass


class L475(L474):
    pass


class L476(L475):
    pass


class L477(L476):
    pass


class L478(L477):
    pass


class L479(L478):
    pass


class L480(L479):
    pass


class L481(L480):
    pass


class L482(L481):
    pass


class L483(L482):
    pass


class L484(L483):
    pass


class L485(L484):
    pass


class L486(L485):
    pass


class L487(L486):
    pass


class L488(L487):
    pass


class L489(L488):
    pass


class L490(L489):
    pass


class L491(L490):
    pass


class L492(L491):
    pass


class L493(L492):
    pass


class L494(L493):
    pass


class L495(L494):
    pass


class L496(L495):
    pass


class L497(L496):
    pass


class L498(L497):
    pass


class L499(L498):
    pass


class L500(L499):
    pass


class L501(L500):
    pass


class L502(L501):
    pass


class L503(L502):
    pass


class L504(L503):
    pass


class L505(L504):
    pass


class L506(L505):
    pass


class L507(L506):
    pass


class L508(L507):
    pass


class L509(L508):
    pass


class L510(L509):
    pass


class L511(L510):
    pass


class L512(L511):
    pass


class L513(L512):
    pass


class L514(L513):
    pass


class L515(L514):
    pass


class L516(L515):
    pass


class L517(L516):
    pass


class L518(L517):
    pass


class L519(L518):
    pass


class L520(L519):
    pass


class L521(L520):
    pass


class L522(L521):
    pass


class L523(L522):
    pass


class L524(L523):
    pass


class L525(L524):
    pass


class L526(L525):
    pass


class L527(L526):
    pass


class L528(L527):
    pass


class L529(L528):
    pass


class L530(L529):
    pass


class L531(L530):
    pass


class L532(L531):
    pass


class L533(L532):
    pass


class L534(L533):
    pass


class L535(L534):
    pass


class L536(L535):
    pass


class L537(L536):
    pass


class L538(L537):
    pass


class L539(L538):
    pass


class L540(L539):
    pass


class L541(L540):
    pass


class L542(L541):
    pass


class L543(L542):
    pass


class L544(L543):
    pass


class L545(L544):
    pass


class L546(L545):
    pass


class L547(L546):
    pass


class L548(L547):
    pass


class L549(L548):
    pass


class L550(L549):
    pass


class L551(L550):
    pass


class L552(L551):
    pass


class L553(L552):
    pass


class L554(L553):
    pass


class L555(L554):
    pass


class L556(L555):
    pass


class L557(L556):
    pass


class L558(L557):
    pass


class L559(L558):
    pass


class L560(L559):
    pass


class L561(L560):
    pass


class L562(L561):
    pass


class L563(L562):
    pass


class L564(L563):
    pass


class L565(L564):
    pass


class L566(L565):
    pass


class L567(L566):
    pass


class L568(L567):
    pass


class L569(L568):
    pass


class L570(L569):
    pass


class L571(L570):
    pass


class L572(L571):
    pass


class L573(L572):
    pass


class L574(L573):
    pass


class L575(L574):
    pass


class L576(L575):
    pass


class L577(L576):
    pass


class L578(L577):
    pass


class L579(L578):
    pass


class L580(L579):
    pass


class L581(L580):
    pass


class L582(L581):
    pass


class L583(L582):
    pass


class L584(L583):
    pass


class L585(L584):
    pass


class L586(L585):
    pass


class L587(L586):
    pass


class L588(L587):
    pass


class L589(L588):
    pass


class L590(L589):
    pass


class L591(L590):
    pass


class L592(L591):
    pass


class L593(L592):
    pass


class L594(L593):
    pass


class L595(L594):
    pass


class L596(L595):
    pass


class L597(L596):
    pass


class L598(L597):
    pass


class L599(L598):
    pass


class L600(L599):
    pass


class L601(L600):
    pass


class L602(L601):
    pass


class L603(L602):
    pass


class L604(L603):
    pass


class L605(L604):
    pass


class L606(L605):
    pass


class L607(L606):
    pass


class L608(L607):
    pass


class L609(L608):
    pass


class L610(L609):
    pass


class L611(L610):
    pass


class L612(L611):
    pass


class L613(L612):
    pass


class L614(L613):
    pass


class L615(L614):
    pass


class L616(L615):
    pass


class L617(L616):
    pass


class L618(L617):
    pass


class L619(L618):
    pass


class L620(L619):
    pass


class L621(L620):
    pass


class L622(L621):
    pass


class L623(L622):
    pass


class L624(L623):
    pass


class L625(L624):
    pass


class L626(L625):
    pass


class L627(L626):
    pass


class L628(L627):
    pass


class L629(L628):
    pass


class L630(L629):
    pass


class L631(L630):
    pass


class L632(L631):
    pass


class L633(L632):
    pass


class L634(L633):
    pass


class L635(L634):
    pass


class L636(L635):
    pass


class L637(L636):
    pass


class L638(L637):
    pass


class L639(L638):
    pass


class L640(L639):
    pass


class L641(L640):
    pass


class L642(L641):
    pass


class L643(L642):
    pass


class L644(L643):
    pass


class L645(L644):
    pass


class L646(L645):
    pass


class L647(L646):
    pass


class L648(L647):
    pass


class L649(L648):
    pass


class L650(L649):
    pass


class L651(L650):
    pass


class L652(L651):
    pass


class L653(L652):
    pass


class L654(L653):
    pass


class L655(L654):
    pass


class L656(L655):
    pass


class L657(L656):
    pass


class L658(L657):
    pass


class L659(L658):
    pass


class L660(L659):
    pass


class L661(L660):
    pass


class L662(L661):
    pass


class L663(L662):
    pass


class L664(L663):
    pass


class L665(L664):
    pass


class L666(L665):
    pass


class L667(L666):
    pass


class L668(L667):
    pass


class L669(L668):
    pass


class L670(L669):
    pass


class L671(L670):
    pass


class L672(L671):
    pass


class L673(L672):
    pass


class L674(L673):
    pass


class L675(L674):
    pass


class L676(L675):
    pass


class L677(L676):
    pass


class L678(L677):
    pass


class L679(L678):
    pass


class L680(L679):
    pass


class L681(L680):
    pass


class L682(L681):
    pass


class L683(L682):
    pass


class L684(L683):
    pass


class L685(L684):
    pass


class L686(L685):
    pass


class L687(L686):
    pass


class L688(L687):
    pass


class L689(L688):
    pass


class L690(L689):
    pass


class L691(L690):
    pass


class L692(L691):
    pass


class L693(L692):
    pass


class L694(L693):
    pass


class L695(L694):
    pass


class L696(L695):
    pass


class L697(L696):
    pass


class L698(L697):
    pass


class L699(L698):
    pass


class L700(L699):
    pass


class L701(L700):
    pass


class L702(L701):
    pass


class L703(L702):
    pass


class L704(L703):
    pass


class L705(L704):
    pass


class L706(L705):
    pass


class L707(L706):
    pass


class L708(L707):
    pass


class L709(L708):
    pass


class L710(L709):
    pass


class L711(L710):
    pass


class L712(L711):
    pass


class L713(L712):
    pass


class L714(L713):
    pass


class L715(L714):
    pass


class L716(L715):
    pass


class L717(L716):
    pass


class L718(L717):
    pass


class L719(L718):
    pass


class L720(L719):
    pass


class L721(L720):
    pass


class L722(L721):
    pass


class L723(L722):
    pass


class L724(L723):
    pass


class L725(L724):
    pass


class L726(L725):
    pass


class L727(L726):
    pass


class L728(L727):
    pass


class L729(L728):
    pass


class L730(L729):
    pass


class L731(L730):
    pass


class L732(L731):
    pass


class L733(L732):
    pass


class L734(L733):
    pass


class L735(L734):
    pass


class L736(L735):
    pass


class L737(L736):
    pass


class L738(L737):
    pass


class L739(L738):
    pass


class L740(L739):
    pass


class L741(L740):
    pass


class L742(L741):
    pass


class L743(L742):
    pass


class L744(L743):
    pass


class L745(L744):
    pass


class L746(L745):
    pass


class L747(L746):
    pass


class L748(L747):
    pass


class L749(L748):
    pass


class L750(L749):
    pass


class L751(L750):
    pass


class L752(L751):
    pass


class L753(L752):
    pass


class L754(L753):
    pass


class L755(L754):
    pass


class L756(L755):
    pass


class L757(L756):
    pass


class L758(L757):
    pass


class L759(L758):
    pass


class L760(L759):
    pass


class L761(L760):
    pass


class L762(L761):
    pass


class L763(L762):
    pass


class L764(L763):
    pass


class L765(L764):
    pass


class L766(L765):
    pass


class L767(L766):
    pass


class L768(L767):
    pass


class L769(L768):
    pass


class L770(L769):
    pass


class L771(L770):
    pass


class L772(L771):
    pass


class L773(L772):
    pass


class L774(L773):
    pass


class L775(L774):
    pass


class L776(L775):
    pass


class L777(L776):
    pass


class L778(L777):
    pass


class L779(L778):
    pass


class L780(L779):
    pass


class L781(L780):
    pass


class L782(L781):
    pass


class L783(L782):
    pass


class L784(L783):
    pass


class L785(L784):
    pass


class L786(L785):
    pass


class L787(L786):
    pass


class L788(L787):
    pass


class L789(L788):
    pass


class L790(L789):
    pass


class L791(L790):
    pass


class L792(L791):
    pass


class L793(L792):
    pass


class L794(L793):
    pass


class L795(L794):
    pass


class L796(L795):
    pass


class L797(L796):
    pass


class L798(L797):
    pass


class L799(L798):
    pass


class L800(L799):
    pass


class L801(L800):
    pass


class L802(L801):
    pass


class L803(L802):
    pass


class L804(L803):
    pass


class L805(L804):
    pass


class L806(L805):
    pass


class L807(L806):
    pass


class L808(L807):
    pass


class L809(L808):
    pass


class L810(L809):
    pass


class L811(L810):
    pass


class L812(L811):
    pass


class L813(L812):
    pass


class L814(L813):
    pass


class L815(L814):
    pass


class L816(L815):
    pass


class L817(L816):
    pass


class L818(L817):
    pass


class L819(L818):
    pass


class L820(L819):
    pass


class L821(L820):
    pass


class L822(L821):
    pass


class L823(L822):
    pass


class L824(L823):
    pass


class L825(L824):
    pass


class L826(L825):
    pass


class L827(L826):
    pass


class L828(L827):
    pass


class L829(L828):
    pass


class L830(L829):
    pass


class L831(L830):
    pass


class L832(L831):
    pass


class L833(L832):
    pass


class L834(L833):
    pass


class L835(L834):
    pass


class L836(L835):
    pass


class L837(L836):
    pass


class L838(L837):
    pass


class L839(L838):
    pass


class L840(L839):
    pass


class L841(L840):
    pass


class L842(L841):
    pass


class L843(L842):
    pass


class L844(L843):
    pass


class L845(L844):
    pass


class L846(L845):
    pass


class L847(L846):
    pass


class L848(L847):
    pass


class L849(L848):
    pass


class L850(L849):
    pass


class L851(L850):
    pass


class L852(L851):
    pass


class L853(L852):
    pass


class L854(L853):
    pass


class L855(L854):
    pass


class L856(L855):
    pass


class L857(L856):
    pass


class L858(L857):
    pass


class L859(L858):
    pass


class L860(L859):
    pass


class L861(L860):
    pass


class L862(L861):
    pass


class L863(L862):
    pass


class L864(L863):
    pass


class L865(L864):
    pass


class L866(L865):
    pass


class L867(L866):
    pass


class L868(L867):
    pass


class L869(L868):
    pass


class L870(L869):
    pass


class L871(L870):
    pass


class L872(L871):
    pass


class L873(L872):
    pass


class L874(L873):
    pass


class L875(L874):
    pass


class L876(L875):
    pass


class L877(L876):
    pass


class L878(L877):
    pass


class L879(L878):
    pass


class L880(L879):
    pass


class L881(L880):
    pass


class L882(L881):
    pass


class L883(L882):
    pass


class L884(L883):
    pass


class L885(L884):
    pass


class L886(L885):
    pass


class L887(L886):
    pass


class L888(L887):
    pass


class L889(L888):
    pass


class L890(L889):
    pass


class L891(L890):
    pass


class L892(L891):
    pass


class L893(L892):
    pass


class L894(L893):
    pass


class L895(L894):
    pass


class L896(L895):
    pass


class L897(L896):
    pass


class L898(L897):
    pass


class L899(L898):
    pass


class L900(L899):
    pass


class L901(L900):
    pass


class L902(L901):
    pass


class L903(L902):
    pass


class L904(L903):
    pass


class L905(L904):
    pass


class L906(L905):
    pass


class L907(L906):
    pass


class L908(L907):
    pass


class L909(L908):
    pass


class L910(L909):
    pass


class L911(L910):
    pass


class L912(L911):
    pass


class L913(L912):
    pass


class L914(L913):
    pass


class L915(L914):
    pass


class L916(L915):
    pass


class L917(L916):
    pass


class L918(L917):
    pass


class L919(L918):
    pass


class L920(L919):
    pass


class L921(L920):
    pass


class L922(L921):
    pass


class L923(L922):
    pass


class L924(L923):
    pass


class L925(L924):
    pass


class L926(L925):
    pass


class L927(L926):
    pass


class L928(L927):
    pass


class L929(L928):
    pass


class L930(L929):
    pass


class L931(L930):
    pass


class L932(L931):
    pass


class L933(L932):
    pass


class L934(L933):
    pass


class L935(L934):
    pass


class L936(L935):
    pass


class L937(L936):
    pass


class L938(L937):
    pass


class L939(L938):
    pass


class L940(L939):
    pass


class L941(L940):
    pass


class L942(L941):
    pass


class L943(L942):
    pass


class L944(L943):
    pass


class L945(L944):
    pass


class L946(L945):
    pass


class L947(L946):
    pass


class L948(L947):
    pass


class L949(L948):
    pass


class L950(L949):
    pass


class L951(L950):
    pass


class L952(L951):
    pass


class L953(L952):
    pass


class L954(L953):
    pass


class L955(L954):
    pass


class L956(L955):
    pass


class L957(L956):
    pass


class L958(L957):
    pass


class L959(L958):
    pass


class L960(L959):
    pass


class L961(L960):
    pass


class L962(L961):
    pass


class L963(L962):
    pass


class L964(L963):
    pass


class L965(L964):
    pass


class L966(L965):
    pass


class L967(L966):
    pass


class L968(L967):
    pass


class L969(L968):
    pass


class L970(L969):
    pass


class L971(L970):
    pass


class L972(L971):
    pass


class L973(L972):
    pass


class L974(L973):
    pass


class L975(L974):
    pass


class L976(L975):
    pass


class L977(L976):
    pass


class L978(L977):
    pass


class L979(L978):
    pass


class L980(L979):
    pass


class L981(L980):
    pass


class L982(L981):
    pass


class L983(L982):
    pass


class L984(L983):
    pass


class L985(L984):
    pass


class L986(L985):
    pass


class L987(L986):
    pass


class L988(L987):
    pass


class L989(L988):
    pass


class L990(L989):
    pass


class L991(L990):
    pass


class L992(L991):
    pass


class L993(L992):
    pass


class L994(L993):
    pass


class L995(L994):
    pass


class L996(L995):
    pass


class L997(L996):
    pass


class L998(L997):
    pass


class L999(L998):
    pass


class L1000(L999):
    pass


class L1001(L1000):
    pass


class L1002(L1001):
    pass


class L1003(L1002):
    pass


class L1004(L1003):
    pass


class L1005(L1004):
    pass


class L1006(L1005):
    pass


class L1007(L1006):
    pass


class L1008(L1007):
    pass


class L1009(L1008):
    pass


class L1010(L1009):
    pass


class L1011(L1010):
    pass


class L1012(L1011):
    pass


class L1013(L1012):
    pass


class L1014(L1013):
    pass


class L1015(L1014):
    pass


class L1016(L1015):
    pass


class L1017(L1016):
    pass


class L1018(L1017):
    pass


class L1019(L1018):
    pass


class L1020(L1019):
    pass


class L1021(L1020):
    pass


class L1022(L1021):
    pass


class L1023(L1022):
    pass


class L1024(L1023):
    pass


class L1025(L1024):
    pass


class L1026(L1025):
    pass


class L1027(L1026):
    pass


class L1028(L1027):
    pass


class L1029(L1028):
    pass


class L1030(L1029):
    pass


class L1031(L1030):
    pass


class L1032(L1031):
    pass


class L1033(L1032):
    pass


class L1034(L1033):
    pass


class L1035(L1034):
    pass


class L1036(L1035):
    pass


class L1037(L1036):
    pass


class L1038(L1037):
    pass


class L1039(L1038):
    pass


class L1040(L1039):
    pass


class L1041(L1040):
    pass


class L1042(L1041):
    pass


class L1043(L1042):
    pass


class L1044(L1043):
    pass


class L1045(L1044):
    pass


class L1046(L1045):
    pass


class L1047(L1046):
    pass


class L1048(L1047):
    pass


class L1049(L1048):
    pass


class L1050(L1049):
    pass


class L1051(L1050):
    pass


class L1052(L1051):
    pass


class L1053(L1052):
    pass


class L1054(L1053):
    pass


class L1055(L1054):
    pass


class L1056(L1055):
    pass


class L1057(L1056):
    pass


class L1058(L1057):
    pass


class L1059(L1058):
    pass


class L1060(L1059):
    pass


class L1061(L1060):
    pass


class L1062(L1061):
    pass


class L1063(L1062):
    pass


class L1064(L1063):
    pass


class L1065(L1064):
    pass


class L1066(L1065):
    pass


class L1067(L1066):
    pass


class L1068(L1067):
    pass


class L1069(L1068):
    pass


class L1070(L1069):
    pass


class L1071(L1070):
    pass


class L1072(L1071):
    pass


class L1073(L1072):
    pass


class L1074(L1073):
    pass


class L1075(L1074):
    pass


class L1076(L1075):
    pass


class L1077(L1076):
    pass


class L1078(L1077):
    pass


class L1079(L1078):
    pass


class L1080(L1079):
    pass


class L1081(L1080):
    pass


class L1082(L1081):
    pass


class L1083(L1082):
    pass


class L1084(L1083):
    pass


class L1085(L1084):
    pass


class L1086(L1085):
    pass


class L1087(L1086):
    pass


class L1088(L1087):
    pass


class L1089(L1088):
    pass


class L1090(L1089):
    pass


class L1091(L1090):
    pass


class L1092(L1091):
    pass


class L1093(L1092):
    pass


class L1094(L1093):
    pass


class L1095(L1094):
    pass


class L1096(L1095):
    pass


class L1097(L1096):
    pass


class L1098(L1097):
    pass


class L1099(L1098):
    pass


class L1100(L1099):
    pass


class L1101(L1100):
    pass


class L1102(L1101):
    pass


class L1103(L1102):
    pass


class L1104(L1103):
    pass


class L1105(L1104):
    pass


class L1106(L1105):
    pass


class L1107(L1106):
    pass


class L1108(L1107):
    pass


class L1109(L1108):
    pass


class L1110(L1109):
    pass


class L1111(L1110):
    pass


class L1112(L1111):
    pass


class L1113(L1112):
    pass


class L1114(L1113):
    pass


class L1115(L1114):
    pass


class L1116(L1115):
    pass


class L1117(L1116):
    pass


class L1118(L1117):
    pass


class L1119(L1118):
    pass


class L1120(L1119):
    pass


class L1121(L1120):
    pass


class L1122(L1121):
    pass


class L1123(L1122):
    pass


class L1124(L1123):
    pass


class L1125(L1124):
    pass


class L1126(L1125):
    pass


class L1127(L1126):
    pass


class L1128(L1127):
    pass


class L1129(L1128):
    pass


class L1130(L1129):
    pass


class L1131(L1130):
    pass


class L1132(L1131):
    pass


class L1133(L1132):
    pass


class L1134(L1133):
    pass


class L1135(L1134):
    pass


class L1136(L1135):
    pass


class L1137(L1136):
    pass


class L1138(L1137):
    pass


class L1139(L1138):
    pass


class L1140(L1139):
    pass


class L1141(L1140):
    pass


class L1142(L1141):
    pass


class L1143(L1142):
    pass


class L1144(L1143):
    pass


class L1145(L1144):
    pass


class L1146(L1145):
    pass


class L1147(L1146):
    pass


class L1148(L1147):
    pass


class L1149(L1148):
    pass


class L1150(L1149):
    pass


class L1151(L1150):
    pass


class L1152(L1151):
    pass


class L1153(L1152):
    pass


class L1154(L1153):
    pass


class L1155(L1154):
    pass


class L1156(L1155):
    pass


class L1157(L1156):
    pass


class L1158(L1157):
    pass


class L1159(L1158):
    pass


class L1160(L1159):
    pass


class L1161(L1160):
    pass


class L1162(L1161):
    pass


class L1163(L1162):
    pass


class L1164(L1163):
    pass


class L1165(L1164):
    pass


class L1166(L1165):
    pass


class L1167(L1166):
    pass


class L1168(L1167):
    pass


class L1169(L1168):
    pass


class L1170(L1169):
    pass


class L1171(L1170):
    pass


class L1172(L1171):
    pass


class L1173(L1172):
    pass


class L1174(L1173):
    pass


class L1175(L1174):
    pass


class L1176(L1175):
    pass


class L1177(L1176):
    pass


class L1178(L1177):
    pass


class L1179(L1178):
    pass


class L1180(L1179):
    pass


class L1181(L1180):
    pass


class L1182(L1181):
    pass


class L1183(L1182):
    pass


class L1184(L1183):
    pass


class L1185(L1184):
    pass


class L1186(L1185):
    pass


class L1187(L1186):
    pass


class L1188(L1187):
    pass


class L1189(L1188):
    pass


class L1190(L1189):
    pass


class L1191(L1190):
    pass


class L1192(L1191):
    pass


class L1193(L1192):
    pass


class L1194(L1193):
    pass


class L1195(L1194):
    pass


class L1196(L1195):
    pass


class L1197(L1196):
    pass


class L1198(L1197):
    pass


class L1199(L1198):
    pass


class L1200(L1199):
    pass


class L1201(L1200):
    pass


class L1202(L1201):
    pass


class L1203(L1202):
    pass


class L1204(L1203):
    pass


class L1205(L1204):
    pass


class L1206(L1205):
    pass


class L1207(L1206):
    pass


class L1208(L1207):
    pass


class L1209(L1208):
    pass


class L1210(L1209):
    pass


class L1211(L1210):
    pass


class L1212(L1211):
    pass


class L1213(L1212):
    pass


class L1214(L1213):
    pass


class L1215(L1214):
    pass


class L1216(L1215):
    pass


class L1217(L1216):
    pass


class L1218(L1217):
    pass


class L1219(L1218):
    pass


class L1220(L1219):
    pass


class L1221(L1220):
    pass


class L1222(L1221):
    pass


class L1223(L1222):
    pass


class L1224(L1223):
    pass


class L1225(L1224):
    pass


class L1226(L1225):
    pass


class L1227(L1226):
    pass


class L1228(L1227):
    pass


class L1229(L1228):
    pass


class L1230(L1229):
    pass


class L1231(L1230):
    pass


class L1232(L1231):
    pass


class L1233(L1232):
    pass


class L1234(L1233):
    pass


class L1235(L1234):
    pass


class L1236(L1235):
    pass


class L1237(L1236):
    pass


class L1238(L1237):
    pass


class L1239(L1238):
    pass


class L1240(L1239):
    pass


class L1241(L1240):
    pass


class L1242(L1241):
    pass


class L1243(L1242):
    pass


class L1244(L1243):
    pass


class L1245(L1244):
    pass


class L1246(L1245):
    pass


class L1247(L1246):
    pass


class L1248(L1247):
    pass


class L1249(L1248):
    pass


class L1250(L1249):
    pass


class L1251(L1250):
    pass


class L1252(L1251):
    pass


class L1253(L1252):
    pass


class L1254(L1253):
    pass


class L1255(L1254):
    pass


class L1256(L1255):
    pass


class L1257(L1256):
    pass


class L1258(L1257):
    pass


class L1259(L1258):
    pass


class L1260(L1259):
    pass


class L1261(L1260):
    pass


class L1262(L1261):
    pass


class L1263(L1262):
    pass


class L1264(L1263):
    pass


class L1265(L1264):
    pass


class L1266(L1265):
    pass


class L1267(L1266):
    pass


class L1268(L1267):
    pass


class L1269(L1268):
    pass


class L1270(L1269):
    pass


class L1271(L1270):
    pass


class L1272(L1271):
    pass


class L1273(L1272):
    pass


class L1274(L1273):
    pass


class L1275(L1274):
    pass


class L1276(L1275):
    pass


class L1277(L1276):
    pass


class L1278(L1277):
    pass


class L1279(L1278):
    pass


class L1280(L1279):
    pass


class L1281(L1280):
    pass


class L1282(L1281):
    pass


class L1283(L1282):
    pass


class L1284(L1283):
    pass


class L1285(L1284):
    pass


class L1286(L1285):
    pass


class L1287(L1286):
    pass


class L1288(L1287):
    pass


class L1289(L1288):
    pass


class L1290(L1289):
    pass


class L1291(L1290):
    pass


class L1292(L1291):
    pass


class L1293(L1292):
    pass


class L1294(L1293):
    pass


class L1295(L1294):
    pass


class L1296(L1295):
    pass


class L1297(L1296):
    pass


class L1298(L1297):
    pass


class L1299(L1298):
    pass


class L1300(L1299):
    pass


class L1301(L1300):
    pass


class L1302(L1301):
    pass


class L1303(L1302):
    pass


class L1304(L1303):
    pass


class L1305(L1304):
    pass


class L1306(L1305):
    pass


class L1307(L1306):
    pass


class L1308(L1307):
    pass


class L1309(L1308):
    pass


class L1310(L1309):
    pass


class L1311(L1310):
    pass


class L1312(L1311):
    pass


class L1313(L1312):
    pass


class L1314(L1313):
    pass


class L1315(L1314):
    pass


class L1316(L1315):
    pass


class L1317(L1316):
    pass


class L1318(L1317):
    pass


class L1319(L1318):
    pass


class L1320(L1319):
    pass


class L1321(L1320):
    pass


class L1322(L1321):
    pass


class L1323(L1322):
    pass


class L1324(L1323):
    pass


class L1325(L1324):
    pass


class L1326(L1325):
    pass


class L1327(L1326):
    pass


class L1328(L1327):
    pass


class L1329(L1328):
    pass


class L1330(L1329):
    pass


class L1331(L1330):
    pass


class L1332(L1331):
    pass


class L1333(L1332):
    pass


class L1334(L1333):
    pass


class L1335(L1334):
    pass


class L1336(L1335):
    pass


class L1337(L1336):
    pass


class L1338(L1337):
    pass


class L1339(L1338):
    pass


class L1340(L1339):
    pass


class L1341(L1340):
    pass


class L1342(L1341):
    pass


class L1343(L1342):
    pass


class L1344(L1343):
    pass


class L1345(L1344):
    pass


class L1346(L1345):
    pass


class L1347(L1346):
    pass


class L1348(L1347):
    pass


class L1349(L1348):
    pass


class L1350(L1349):
    pass


class L1351(L1350):
    pass


class L1352(L1351):
    pass


class L1353(L1352):
    pass


class L1354(L1353):
    pass


class L1355(L1354):
    pass


class L1356(L1355):
    pass


class L1357(L1356):
    pass


class L1358(L1357):
    pass


class L1359(L1358):
    pass


class L1360(L1359):
    pass


class L1361(L1360):
    pass


class L1362(L1361):
    pass


class L1363(L1362):
    pass


class L1364(L1363):
    pass


class L1365(L1364):
    pass


class L1366(L1365):
    pass


class L1367(L1366):
    pass


class L1368(L1367):
    pass


class L1369(L1368):
    pass


class L1370(L1369):
    pass


class L1371(L1370):
    pass


class L1372(L1371):
    pass


class L1373(L1372):
    pass


class L1374(L1373):
    pass


class L1375(L1374):
    pass


class L1376(L1375):
    pass


class L1377(L1376):
    pass


class L1378(L1377):
    pass


class L1379(L1378):
    pass


class L1380(L1379):
    pass


class L1381(L1380):
    pass


class L1382(L1381):
    pass


class L1383(L1382):
    pass


class L1384(L1383):
    pass


class L1385(L1384):
    pass


class L1386(L1385):
    pass


class L1387(L1386):
    pass


class L1388(L1387):
    pass


class L1389(L1388):
    pass


class L1390(L1389):
    pass


class L1391(L1390):
    pass


class L1392(L1391):
    pass


class L1393(L1392):
    pass


class L1394(L1393):
    pass


class L1395(L1394):
    pass


class L1396(L1395):
    pass


class L1397(L1396):
    pass


class L1398(L1397):
    pass


class L1399(L1398):
    pass


class L1400(L1399):
    pass


class L1401(L1400):
    pass


class L1402(L1401):
    pass


class L1403(L1402):
    pass


class L1404(L1403):
    pass


class L1405(L1404):
    pass


class L1406(L1405):
    pass


class L1407(L1406):
    pass


class L1408(L1407):
    pass


class L1409(L1408):
    pass


class L1410(L1409):
    pass


class L1411(L1410):
    pass


class L1412(L1411):
    pass


class L1413(L1412):
    pass


class L1414(L1413):
    pass


class L1415(L1414):
    pass


class L1416(L1415):
    pass


class L1417(L1416):
    pass


class L1418(L1417):
    pass


class L1419(L1418):
    pass


class L1420(L1419):
    pass


class L1421(L1420):
    pass


class L1422(L1421):
    pass


class L1423(L1422):
    pass


class L1424(L1423):
    pass


class L1425(L1424):
    pass


class L1426(L1425):
    pass


class L1427(L1426):
    pass


class L1428(L1427):
    pass


class L1429(L1428):
    pass


class L1430(L1429):
    pass


class L1431(L1430):
    pass


class L1432(L1431):
    pass


class L1433(L1432):
    pass


class L1434(L1433):
    pass


class L1435(L1434):
    pass


class L1436(L1435):
    pass


class L1437(L1436):
    pass


class L1438(L1437):
    pass


class L1439(L1438):
    pass


class L1440(L1439):
    pass


class L1441(L1440):
    pass


class L1442(L1441):
    pass


class L1443(L1442):
    pass


class L1444(L1443):
    pass


class L1445(L1444):
    pass


class L1446(L1445):
    pass


class L1447(L1446):
    pass


class L1448(L1447):
    pass


class L1449(L1448):
    pass


class L1450(L1449):
    pass


class L1451(L1450):
    pass


class L1452(L1451):
    pass


class L1453(L1452):
    pass


class L1454(L1453):
    pass


class L1455(L1454):
    pass


class L1456(L1455):
    pass


class L1457(L1456):
    pass


class L1458(L1457):
    pass


class L1459(L1458):
    pass


class L1460(L1459):
    pass


class L1461(L1460):
    pass


class L1462(L1461):
    pass


class L1463(L1462):
    pass


class L1464(L1463):
    pass


class L1465(L1464):
    pass


class L1466(L1465):
    pass


class L1467(L1466):
    pass


class L1468(L1467):
    pass


class L1469(L1468):
    pass


class L1470(L1469):
    pass


class L1471(L1470):
    pass


class L1472(L1471):
    pass


class L1473(L1472):
    pass


class L1474(L1473):
    pass


class L1475(L1474):
    pass


class L1476(L1475):
    pass


class L1477(L1476):
    pass


class L1478(L1477):
    pass


class L1479(L1478):
    pass


class L1480(L1479):
    pass


class L1481(L1480):
    pass


class L1482(L1481):
    pass


class L1483(L1482):
    pass


class L1484(L1483):
    pass


class L1485(L1484):
    pass


class L1486(L1485):
    pass


class L1487(L1486):
    pass


class L1488(L1487):
    pass


class L1489(L1488):
    pass


class L1490(L1489):
    pass


class L1491(L1490):
    pass


class L1492(L1491):
    pass


class L1493(L1492):
    pass


class L1494(L1493):
    pass


class L1495(L1494):
    pass


class L1496(L1495):
    pass


class L1497(L1496):
    pass


class L1498(L1497):
    pass


class L1499(L1498):
    pass


def apply(v):
    return L1499()(v)
