/*
 * test_snarkjs_json.c — proof.json / public.json / verification_key.json. Independent
 * checks: a verifying key, proof and public signals written by snarkjs 0.7.6 itself (the
 * mul_chain circuit of tests/interop/snarkjs, a = 3, b = 11) must parse and verify, and
 * writing the key back must reproduce snarkjs's vk_alphabeta_12 = e(alpha, beta) digit for
 * digit; the BLS12-381 generators' published decimal coordinates parse to the library's
 * generator constants. Then round trips of random values, and strictness: every malformed
 * number, z coordinate, curve tag, off-curve or out-of-subgroup point, and every truncation
 * of a valid document is rejected with the right status.
 * Threading: single-threaded.
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, close */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "cuzk/formats.h"
#include "cuzk/groth16.h"
#include "test_rng.h"

/* snarkjs 0.7.6 output (JSON re-serialised without whitespace). */
static const char k_vk[] =
    "{\"protocol\":\"groth16\",\"curve\":\"bls12381\",\"nPublic\":2,\"vk_alpha_1\":[\"52651458229978617378"
    "0134242203209392833686519452886698704827088536771265197191041704520673979341361602563905"
    "637896\",\"1740494817727007166772038596298812873317530457692765835200527977303676204322031"
    "373902011983992146996232553616196418\",\"1\"],\"vk_beta_2\":[[\"363817667751739817753575154935"
    "9803442772792022079132512229604239151129292361633414549011903309584373383824557593320\",\""
    "1098922935962468928982766548834730396401056166941242605034378736294507125216043778316550"
    "129083194302541481812103594\"],[\"15457806567388798834160980708811912269878399521312665327"
    "06391774371312909497703410539352809097651278373002757048768\",\"25099308768184808541675363"
    "0582548236371458289601725156176269316064987418055944229117754626367455428279678412686138"
    "6\"],[\"1\",\"0\"]],\"vk_gamma_2\":[[\"352701069587466618187139116011060144890029952792775240219"
    "908644239793785735715026873347600343865175952761926303160\",\"3059144344244213709971259814"
    "753781636986470325476647558659373206291635324768958432433509563104347017837885763365758\""
    "],[\"198515060228729193556805452117717163830086897821565573085937866506634472637382371842"
    "3869104263333984641494340347905\",\"927553665492332455747201965776037880757740193453592970"
    "025027978793976877002675564980949289727957565575433344219582\"],[\"1\",\"0\"]],\"vk_delta_2\":["
    "[\"20567762480383555959609891747820562301795102267370927677184159599803159024391149627619"
    "25971231951853553600901178091\",\"98581213220402845331195375847153696207753376594286602446"
    "2392007763013403370641410634044501506689339580181179844179\"],[\"3062357884734456431242977"
    "1351698382935834940951709483905945328181084193966842249943295546664369204281151692862847"
    "64\",\"68256495419404723291454859237073105208184502634768522644418852974844302434791158966"
    "338271020347594743161656523893\"],[\"1\",\"0\"]],\"vk_alphabeta_12\":[[[\"3800733132970321234119"
    "0258830255324492151714411216514370354446787218711966443113118715054866681859844101054558"
    "90665\",\"34347186158233694042045647932649557772983442200437803389733794771592512391149977"
    "87046810873715911378539227924572945\"],[\"113018301901573370678941661264380396430752766381"
    "3848608584404751716810168390167220062049574917586623603854213004516\",\"218066502133713991"
    "1009370324800469643635425055226703493175906897244081123556727751853648599837477032308497"
    "156362683\"],[\"56758794615051529049993674362630421697776698102565085667323756880450709134"
    "2897644152063304848663874257331309629456\",\"360588193069914633706820575152252216448274810"
    "7606620424554823833132172069456632729206119930380840819055038158428436\"]],[[\"39863671132"
    "8574618309140726567774952784991058966650295612510510139036478213288631291405859558237868"
    "5847655069798550\",\"175467863931162953280792788880599560090279940350688429132705576902794"
    "3931245787514792614138339408730580701816209215\"],[\"3049422906633199506312768103970771691"
    "424567365934080192930748688095941582404947606209477927247136726303043345290647\",\"2652007"
    "1603333984586084460146707460458971401123683148981099109190180866446327151979559893628208"
    "27980313296746764029\"],[\"274946925699068780535814971126205452914090230159492344876212861"
    "340664404704679147937724685438301204556988662492851\",\"7223841473162154099495114304724890"
    "99627823290374244838399717936917101880437921457562566223632959225334530430051426\"]]],\"IC"
    "\":[[\"19023922134715340421313966394890190179780820686356108350055165967019222543501213314"
    "60052336492164818838426299751571\",\"14879057715281254108990005023852984307399596667147101"
    "37050238920246834009687966203334956323867869465954794863531481\",\"1\"],[\"24018435190489622"
    "2891667456618823359849171595979103833429858524350245562009158147362394443563401005746648"
    "0137399231\",\"319855309902149845784020159505984368331149976468531771956333109933485494095"
    "2448847118183501836683799217205573824089\",\"1\"],[\"274558544925152210368055033225368388681"
    "1286296820810681251740787265917441264155497868619547304419733304592734489721\",\"853698793"
    "3025725374181439592882862866642388528389801855334156812167405867870855281217985702286624"
    "12284265548826811\",\"1\"]]}";
static const char k_proof[] =
    "{\"pi_a\":[\"129131237713997286792270901107086531757787855249639051701082053946590760558412"
    "4949067991504385548914849807506087185\",\"353583877045133920938999461211731461123947283140"
    "2419342302204009216791771565832088466457052979447028335122148612770\",\"1\"],\"pi_b\":[[\"2911"
    "1862176747495445987787744214672825058170111780786829669502903641100463462058309295750497"
    "6462590125175038759535\",\"144210664796633949669034836804438221985900869548503577602092975"
    "7751003621816732564892591604472017615443734527816352\"],[\"5362745357181116849615078071711"
    "35084889513897725239304134331076195176115205926973500091639739184791378654868495600\",\"26"
    "0974534290252641252480241166814799108927430882976004993038505470885716457679198867494739"
    "8552398681681341989641560\"],[\"1\",\"0\"]],\"pi_c\":[\"1081230427351154087734234444016537063717"
    "569485027411897126112021915740538425036268725881243807830454250487894291773\",\"2716585909"
    "1699579293821219368790361824711119822056226883473715103170577935580945766845473829944737"
    "82295251915294752\",\"1\"],\"protocol\":\"groth16\",\"curve\":\"bls12381\"}";
static const char k_public[] =
    "[\"84194\",\"11\"]";

/* The G1 generator as snarkjs/IETF print it (decimal of 0x17f1d3a7...c6bb, 0x08b3f481...e7e1). */
static const char k_g1_gen[] =
    "[\"3685416753713387016781088315183077757961620795782546409894578378688607592378376318836"
    "054947676345821548104185464507\",\"13395065449444764730204713799419212215849338759383496"
    "20426543736416511423956333506472724655353366534992391756441569\",\"1\"]";

/* The G2 generator (snarkjs's vk_gamma_2 is the generator, as in k_vk). */
static const char k_g2_gen[] =
    "[[\"352701069587466618187139116011060144890029952792775240219908644239793785735715026873"
    "347600343865175952761926303160\",\"305914434424421370997125981475378163698647032547664755"
    "8659373206291635324768958432433509563104347017837885763365758\"],[\"19851506022872919355"
    "68054521177171638300868978215655730859378665066344726373823718423869104263333984641494"
    "340347905\",\"92755366549233245574720196577603788075774019345359297002502797879397687700"
    "2675564980949289727957565575433344219582\"],[\"1\",\"0\"]]";

/* A proof document with the given pi_a, pi_b, pi_c texts. */
static char *proof_doc(const char *a, const char *b, const char *c)
{
    static char buf[4096];
    snprintf(buf, sizeof buf,
             "{\"pi_a\":%s,\"pi_b\":%s,\"pi_c\":%s,\"protocol\":\"groth16\","
             "\"curve\":\"bls12381\"}",
             a, b, c);
    return buf;
}

/* pi_a as given; pi_b and pi_c the generators. */
static char *proof_with_a(const char *a) { return proof_doc(a, k_g2_gen, k_g1_gen); }

static void test_snarkjs_vectors(void **state)
{
    (void)state;
    cuzk_groth16_vk vk;
    cuzk_groth16_proof proof;
    cuzk_fr *pub;
    size_t n;
    cuzk_error e;
    assert_int_equal(cuzk_groth16_vk_from_snarkjs_json(&vk, k_vk, strlen(k_vk), &e), CUZK_OK);
    assert_int_equal(vk.n_ic, 3);
    assert_true(cuzk_g2_affine_eq(&vk.gamma_g2, &CUZK_G2_GENERATOR)); /* snarkjs's gamma */
    assert_int_equal(cuzk_groth16_proof_from_snarkjs_json(&proof, k_proof, strlen(k_proof), &e),
                     CUZK_OK);
    assert_int_equal(cuzk_frs_from_snarkjs_json(&pub, &n, k_public, strlen(k_public), &e),
                     CUZK_OK);
    assert_int_equal(n, 2);
    cuzk_fr c, b;
    cuzk_fr_from_u64(&c, 84194); /* t7 of the chain for a = 3, b = 11 */
    cuzk_fr_from_u64(&b, 11);
    assert_true(cuzk_fr_eq(&pub[0], &c) && cuzk_fr_eq(&pub[1], &b));

    cuzk_groth16_pvk pvk;
    assert_int_equal(cuzk_groth16_pvk_prepare(&pvk, &vk), CUZK_OK);
    assert_int_equal(cuzk_groth16_verify(&pvk, pub, n, &proof, &e), CUZK_OK);
    cuzk_fr_add(&pub[1], &pub[1], &CUZK_FR_ONE);
    assert_int_equal(cuzk_groth16_verify(&pvk, pub, n, &proof, &e), CUZK_ERR_INVALID_PROOF);

    /* our writer reproduces snarkjs's vk, vk_alphabeta_12 included */
    char *out;
    assert_int_equal(cuzk_groth16_vk_to_snarkjs_json(&out, &vk, &e), CUZK_OK);
    char *compact = malloc(strlen(out) + 1), *q = compact;
    for (const char *p = out; *p; p++)
        if (*p != ' ' && *p != '\n')
            *q++ = *p;
    *q = 0;
    assert_string_equal(compact, k_vk);
    free(compact);
    free(out);
    free(pub);
    cuzk_groth16_vk_free(&vk);

    cuzk_g1_affine g;
    char *doc = proof_with_a(k_g1_gen);
    assert_int_equal(cuzk_groth16_proof_from_snarkjs_json(&proof, doc, strlen(doc), &e), CUZK_OK);
    g = proof.a;
    assert_true(cuzk_g1_affine_eq(&g, &CUZK_G1_GENERATOR));
    assert_true(cuzk_g2_affine_eq(&proof.b, &CUZK_G2_GENERATOR));
    assert_true(cuzk_g1_affine_eq(&proof.c, &CUZK_G1_GENERATOR));
}

static void rand_g1(cuzk_g1_affine *r)
{
    cuzk_fr k;
    test_rand_fr(&k);
    cuzk_g1_jac j;
    cuzk_g1_jac_from_affine(&j, &CUZK_G1_GENERATOR);
    cuzk_g1_jac_mul_var(&j, &j, &k);
    cuzk_g1_jac_to_affine(r, &j);
}

static void rand_g2(cuzk_g2_affine *r)
{
    cuzk_fr k;
    test_rand_fr(&k);
    cuzk_g2_jac j;
    cuzk_g2_jac_from_affine(&j, &CUZK_G2_GENERATOR);
    cuzk_g2_jac_mul_var(&j, &j, &k);
    cuzk_g2_jac_to_affine(r, &j);
}

static void test_roundtrips(void **state)
{
    (void)state;
    size_t iters = test_iters(8);
    cuzk_error e;
    for (size_t it = 0; it < iters; it++) {
        cuzk_groth16_proof p, q;
        rand_g1(&p.a);
        rand_g2(&p.b);
        rand_g1(&p.c);
        char *s;
        assert_int_equal(cuzk_groth16_proof_to_snarkjs_json(&s, &p, &e), CUZK_OK);
        assert_int_equal(cuzk_groth16_proof_from_snarkjs_json(&q, s, strlen(s), &e), CUZK_OK);
        assert_true(cuzk_g1_affine_eq(&p.a, &q.a) && cuzk_g2_affine_eq(&p.b, &q.b) &&
                    cuzk_g1_affine_eq(&p.c, &q.c));
        free(s);

        cuzk_fr v[5];
        for (int i = 0; i < 5; i++)
            test_rand_fr(&v[i]);
        v[0] = CUZK_FR_ZERO;
        cuzk_fr_neg(&v[1], &CUZK_FR_ONE); /* r - 1 */
        cuzk_fr *w;
        size_t n;
        assert_int_equal(cuzk_frs_to_snarkjs_json(&s, v, 5, &e), CUZK_OK);
        assert_int_equal(cuzk_frs_from_snarkjs_json(&w, &n, s, strlen(s), &e), CUZK_OK);
        assert_int_equal(n, 5);
        for (int i = 0; i < 5; i++)
            assert_true(cuzk_fr_eq(&v[i], &w[i]));
        free(w);
        free(s);

        cuzk_groth16_vk a, b;
        memset(&a, 0, sizeof a);
        assert_int_equal(cuzk_groth16_vk_alloc(&a, 1 + it % 4, &e), CUZK_OK);
        rand_g1(&a.alpha_g1);
        rand_g2(&a.beta_g2);
        rand_g2(&a.gamma_g2);
        rand_g2(&a.delta_g2);
        for (size_t i = 0; i < a.n_ic; i++)
            rand_g1(&a.ic[i]);
        cuzk_g1_affine_set_infinity(&a.beta_g1); /* not in the JSON */
        cuzk_g1_affine_set_infinity(&a.delta_g1);
        assert_int_equal(cuzk_groth16_vk_to_snarkjs_json(&s, &a, &e), CUZK_OK);
        assert_int_equal(cuzk_groth16_vk_from_snarkjs_json(&b, s, strlen(s), &e), CUZK_OK);
        assert_true(cuzk_groth16_vk_eq(&a, &b));
        free(s);
        cuzk_groth16_vk_free(&a);
        cuzk_groth16_vk_free(&b);
    }
}

static cuzk_status pub_status(const char *doc)
{
    cuzk_fr *w = NULL;
    size_t n;
    cuzk_error e;
    cuzk_status st = cuzk_frs_from_snarkjs_json(&w, &n, doc, strlen(doc), &e);
    if (st == CUZK_OK)
        free(w);
    else
        assert_true(e.msg[0] != 0 && w == NULL);
    return st;
}

static void test_public_strict(void **state)
{
    (void)state;
    assert_int_equal(pub_status("[]"), CUZK_OK);
    assert_int_equal(pub_status("[\"0\"]"), CUZK_OK);
    assert_int_equal(pub_status("[\"5243587517512619047944774050818596583769055250052763782"
                                "2603658699938581184512\"]"), /* r - 1 */
                     CUZK_OK);
    assert_int_equal(pub_status("[\"5243587517512619047944774050818596583769055250052763782"
                                "2603658699938581184513\"]"), /* r */
                     CUZK_ERR_NONCANONICAL);
    static const char *const bad[] = {
        "[\"-1\"]", "[\"01\"]",  "[\"1e3\"]", "[\" 1\"]", "[\"0x1\"]", "[1]",     "[\"\"]",
        "[null]",   "{}",        "\"1\"",     "[\"1\"",   "",          "[\"1.0\"]", "[\"+1\"]",
        ("[\"1111111111111111111111111111111111111111111111111111111111111111111111111111111"
         "1111111111111111111111111111111111111111111111111\"]")};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        assert_int_not_equal(pub_status(bad[i]), CUZK_OK);
}

static cuzk_status proof_status(const char *doc)
{
    cuzk_groth16_proof p;
    cuzk_error e;
    cuzk_status st = cuzk_groth16_proof_from_snarkjs_json(&p, doc, strlen(doc), &e);
    if (st != CUZK_OK)
        assert_true(e.msg[0] != 0);
    return st;
}

static void test_proof_strict(void **state)
{
    (void)state;
    assert_int_equal(proof_status(k_proof), CUZK_OK);
    /* (0, 2) is on y^2 = x^3 + 4 but has order 3, outside G1 */
    assert_int_equal(proof_status(proof_with_a("[\"0\",\"2\",\"1\"]")), CUZK_ERR_NOT_IN_SUBGROUP);
    assert_int_equal(proof_status(proof_with_a("[\"1\",\"2\",\"1\"]")), CUZK_ERR_NOT_ON_CURVE);
    assert_int_equal(proof_status(proof_with_a("[\"0\",\"0\",\"1\"]")), CUZK_ERR_NOT_ON_CURVE);
    assert_int_equal(proof_status(proof_with_a("[\"0\",\"2\",\"2\"]")), CUZK_ERR_FORMAT);
    assert_int_equal(proof_status(proof_with_a("[\"1\",\"1\",\"0\"]")), CUZK_ERR_BAD_INFINITY);
    assert_int_equal(proof_status(proof_with_a("[\"0\",\"1\"]")), CUZK_ERR_FORMAT);
    assert_int_equal(proof_status(proof_with_a("\"x\"")), CUZK_ERR_FORMAT);
    /* q itself is not a coordinate */
    char q[300];
    snprintf(q, sizeof q, "[\"%s\",\"2\",\"1\"]",
             "40024095552216673934177898257359041565568828199390078853320581361240316504908"
             "37864442687629129015664037894272559787");
    assert_int_equal(proof_status(proof_with_a(q)), CUZK_ERR_NONCANONICAL);
    /* wrong curve / protocol tags */
    char doc[4096];
    snprintf(doc, sizeof doc, "%s", k_proof);
    char *c = strstr(doc, "bls12381");
    assert_non_null(c);
    memcpy(c, "bn128\",\"", 8); /* keeps the JSON valid: "curve":"bn128","","... */
    assert_int_not_equal(proof_status(doc), CUZK_OK);
    const char *tag = "{\"pi_a\":[\"0\",\"1\",\"0\"],\"pi_b\":[[\"0\",\"0\"],[\"1\",\"0\"],"
                      "[\"0\",\"0\"]],\"pi_c\":[\"0\",\"1\",\"0\"],\"curve\":\"bn128\"}";
    assert_int_equal(proof_status(tag), CUZK_ERR_UNSUPPORTED);
    const char *proto = "{\"pi_a\":[\"0\",\"1\",\"0\"],\"pi_b\":[[\"0\",\"0\"],[\"1\",\"0\"],"
                        "[\"0\",\"0\"]],\"pi_c\":[\"0\",\"1\",\"0\"],\"protocol\":\"plonk\"}";
    assert_int_equal(proof_status(proto), CUZK_ERR_UNSUPPORTED);
    /* G2 z must be [1, 0] */
    const char *z2 = proof_doc(k_g1_gen, "[[\"0\",\"0\"],[\"1\",\"0\"],[\"0\",\"1\"]]", k_g1_gen);
    assert_int_equal(proof_status(z2), CUZK_ERR_FORMAT);
    assert_int_equal(proof_status(proof_doc(k_g1_gen, k_g2_gen, k_g1_gen)), CUZK_OK);
    /* duplicate keys */
    const char *dup = "{\"pi_a\":[\"0\",\"1\",\"0\"],\"pi_a\":[\"0\",\"1\",\"0\"]}";
    assert_int_equal(proof_status(dup), CUZK_ERR_FORMAT);
    /* every truncation of a valid proof fails cleanly */
    size_t n = strlen(k_proof);
    for (size_t i = 0; i < n; i++) {
        cuzk_groth16_proof p;
        assert_int_not_equal(cuzk_groth16_proof_from_snarkjs_json(&p, k_proof, i, NULL), CUZK_OK);
    }
    /* a changed digit is never accepted: it moves a point off the curve (except with
     * negligible probability) or breaks z. (Unknown keys are ignored, as snarkjs does.) */
    size_t iters = test_iters(400);
    char *m = malloc(n + 1);
    for (size_t i = 0; i < iters; i++) {
        memcpy(m, k_proof, n + 1);
        size_t at = (size_t)(test_rng_u64() % n);
        char was = m[at];
        m[at] = (char)('0' + test_rng_u64() % 10);
        cuzk_groth16_proof p;
        if (m[at] != was && was >= '0' && was <= '9') /* inside a number */
            assert_int_not_equal(cuzk_groth16_proof_from_snarkjs_json(&p, m, n, NULL), CUZK_OK);
    }
    free(m);
}

static void test_vk_strict(void **state)
{
    (void)state;
    cuzk_groth16_vk vk;
    cuzk_error e;
    size_t n = strlen(k_vk);
    char *m = malloc(n + 64);
    /* nPublic must match IC */
    snprintf(m, n + 64, "%s", k_vk);
    char *np = strstr(m, "\"nPublic\":2");
    assert_non_null(np);
    np[10] = '3';
    assert_int_equal(cuzk_groth16_vk_from_snarkjs_json(&vk, m, n, &e), CUZK_ERR_FORMAT);
    /* curve tag is required on a vk */
    snprintf(m, n + 64, "%s", k_vk);
    char *cv = strstr(m, "\"curve\"");
    memcpy(cv, "\"cUrve\"", 7);
    assert_int_equal(cuzk_groth16_vk_from_snarkjs_json(&vk, m, n, &e), CUZK_ERR_FORMAT);
    for (size_t i = 0; i < n; i += 7)
        assert_int_not_equal(cuzk_groth16_vk_from_snarkjs_json(&vk, k_vk, i, NULL), CUZK_OK);
    free(m);
}

/* The point at infinity is refused in every proof and verifying-key point, as bellperson's
 * readers do. Before, verification_key.json accepted gamma = delta = infinity, under which
 * the forged proof (alpha, beta, anything) verifies for every public input. */
static void test_infinity_refused(void **state)
{
    (void)state;
    static const char g1_inf[] = "[\"0\",\"1\",\"0\"]";
    static const char g2_inf[] = "[[\"0\",\"0\"],[\"1\",\"0\"],[\"0\",\"0\"]]";
    cuzk_groth16_proof p;
    cuzk_error e;
    static const char *const names[3] = {"pi_a", "pi_b", "pi_c"};
    for (int i = 0; i < 3; i++) {
        const char *d = i == 0   ? proof_doc(g1_inf, k_g2_gen, k_g1_gen)
                        : i == 1 ? proof_doc(k_g1_gen, g2_inf, k_g1_gen)
                                 : proof_doc(k_g1_gen, k_g2_gen, g1_inf);
        assert_int_equal(cuzk_groth16_proof_from_snarkjs_json(&p, d, strlen(d), &e),
                         CUZK_ERR_FORMAT);
        assert_non_null(strstr(e.msg, names[i]));
        assert_non_null(strstr(e.msg, "infinity"));
    }

    /* a vk whose gamma and delta are infinity: a forgery verifies under it ... */
    cuzk_groth16_vk vk, back;
    memset(&vk, 0, sizeof vk);
    assert_int_equal(cuzk_groth16_vk_alloc(&vk, 3, &e), CUZK_OK);
    rand_g1(&vk.alpha_g1);
    rand_g2(&vk.beta_g2);
    for (size_t i = 0; i < vk.n_ic; i++)
        rand_g1(&vk.ic[i]);
    cuzk_g1_affine_set_infinity(&vk.beta_g1);
    cuzk_g1_affine_set_infinity(&vk.delta_g1);
    cuzk_g2_affine_set_infinity(&vk.gamma_g2);
    cuzk_g2_affine_set_infinity(&vk.delta_g2);
    cuzk_groth16_pvk pvk;
    assert_int_equal(cuzk_groth16_pvk_prepare(&pvk, &vk), CUZK_OK);
    cuzk_groth16_proof forged = {vk.alpha_g1, vk.beta_g2, CUZK_G1_GENERATOR};
    cuzk_fr x[2];
    test_rand_fr(&x[0]);
    test_rand_fr(&x[1]);
    assert_int_equal(cuzk_groth16_verify(&pvk, x, 2, &forged, &e), CUZK_OK);
    /* ... so the reader must not produce one */
    char *s;
    assert_int_equal(cuzk_groth16_vk_to_snarkjs_json(&s, &vk, &e), CUZK_OK);
    assert_int_equal(cuzk_groth16_vk_from_snarkjs_json(&back, s, strlen(s), &e), CUZK_ERR_FORMAT);
    assert_non_null(strstr(e.msg, "vk_gamma_2"));
    free(s);
    /* each vk point alone */
    rand_g2(&vk.gamma_g2);
    assert_int_equal(cuzk_groth16_vk_to_snarkjs_json(&s, &vk, &e), CUZK_OK);
    assert_int_equal(cuzk_groth16_vk_from_snarkjs_json(&back, s, strlen(s), &e), CUZK_ERR_FORMAT);
    assert_non_null(strstr(e.msg, "vk_delta_2"));
    free(s);
    rand_g2(&vk.delta_g2);
    cuzk_g1_affine_set_infinity(&vk.ic[2]);
    assert_int_equal(cuzk_groth16_vk_to_snarkjs_json(&s, &vk, &e), CUZK_OK);
    assert_int_equal(cuzk_groth16_vk_from_snarkjs_json(&back, s, strlen(s), &e), CUZK_ERR_FORMAT);
    assert_non_null(strstr(e.msg, "IC[2]"));
    free(s);
    rand_g1(&vk.ic[2]);
    cuzk_g1_affine_set_infinity(&vk.alpha_g1);
    assert_int_equal(cuzk_groth16_vk_to_snarkjs_json(&s, &vk, &e), CUZK_OK);
    assert_int_equal(cuzk_groth16_vk_from_snarkjs_json(&back, s, strlen(s), &e), CUZK_ERR_FORMAT);
    assert_non_null(strstr(e.msg, "vk_alpha_1"));
    free(s);
    rand_g1(&vk.alpha_g1);
    cuzk_g2_affine_set_infinity(&vk.beta_g2);
    assert_int_equal(cuzk_groth16_vk_to_snarkjs_json(&s, &vk, &e), CUZK_OK);
    assert_int_equal(cuzk_groth16_vk_from_snarkjs_json(&back, s, strlen(s), &e), CUZK_ERR_FORMAT);
    assert_non_null(strstr(e.msg, "vk_beta_2"));
    free(s);
    /* all finite: accepted */
    rand_g2(&vk.beta_g2);
    assert_int_equal(cuzk_groth16_vk_to_snarkjs_json(&s, &vk, &e), CUZK_OK);
    assert_int_equal(cuzk_groth16_vk_from_snarkjs_json(&back, s, strlen(s), &e), CUZK_OK);
    free(s);
    cuzk_groth16_vk_free(&back);
    cuzk_groth16_vk_free(&vk);
}

static void test_files(void **state)
{
    (void)state;
    char path[] = "/tmp/cuzk_test_json_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    cuzk_error e;
    assert_int_equal(cuzk_file_write(path, k_public, strlen(k_public), &e), CUZK_OK);
    char *s;
    size_t n;
    assert_int_equal(cuzk_file_read_text(&s, &n, path, 1 << 20, &e), CUZK_OK);
    assert_int_equal(n, strlen(k_public));
    assert_string_equal(s, k_public);
    free(s);
    assert_int_equal(cuzk_file_read_text(&s, &n, path, 4, &e), CUZK_ERR_LENGTH);
    remove(path);
    assert_int_equal(cuzk_file_read_text(&s, &n, path, 1 << 20, &e), CUZK_ERR_IO);
    assert_int_equal(cuzk_file_write("/nonexistent-dir/x", "a", 1, &e), CUZK_ERR_IO);
}

#ifndef CUZK_HAVE_JANSSON
/* A build without jansson must say so from every JSON entry point. */
static void test_without_jansson(void **state)
{
    (void)state;
    cuzk_groth16_proof p;
    cuzk_groth16_vk vk;
    cuzk_fr *w;
    size_t n;
    char *s;
    cuzk_error e;
    assert_int_equal(cuzk_groth16_proof_from_snarkjs_json(&p, k_proof, strlen(k_proof), &e),
                     CUZK_ERR_UNSUPPORTED);
    assert_non_null(strstr(e.msg, "without JSON support"));
    assert_int_equal(cuzk_groth16_vk_from_snarkjs_json(&vk, k_vk, strlen(k_vk), &e),
                     CUZK_ERR_UNSUPPORTED);
    assert_int_equal(cuzk_frs_from_snarkjs_json(&w, &n, k_public, strlen(k_public), &e),
                     CUZK_ERR_UNSUPPORTED);
    assert_int_equal(cuzk_frs_to_snarkjs_json(&s, &CUZK_FR_ONE, 1, &e), CUZK_ERR_UNSUPPORTED);
}
#endif

int main(void)
{
    test_rng_init("snarkjs_json");
#ifndef CUZK_HAVE_JANSSON
    const struct CMUnitTest without[] = {cmocka_unit_test(test_without_jansson),
                                         cmocka_unit_test(test_files)};
    return cmocka_run_group_tests(without, NULL, NULL);
#endif
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_snarkjs_vectors), cmocka_unit_test(test_roundtrips),
        cmocka_unit_test(test_public_strict),   cmocka_unit_test(test_proof_strict),
        cmocka_unit_test(test_vk_strict),       cmocka_unit_test(test_files),
        cmocka_unit_test(test_infinity_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
