/*
 * fil_counts.c — the exact counts of the Filecoin partition circuits (cuzk/plan.h): one row
 * per (kind, sector size), as the counting backend (cuzk/circuits.h) counts the circuit
 * cuzk records for that kind and size; `cuzk inspect circuit --kind K --sector-size S`
 * prints the same numbers. test_fil_plan holds the table to the counting backend at
 * 2 KiB and 8 MiB (and every PoSt size: they count in a second) and checks the others
 * against what is cheap (the 32 GiB PoRep key of the issue, domains, cuzk/post.h's rows).
 *
 * Counting times on the 2-core development box (cuzk inspect circuit, one at a time):
 * PoRep 0.9 / 1.3 / 0.8 / 19.0 / 18.3 s, SnapDeals 0.4 / 1.4 / 8.3 / 11.9 / 12.4 s at
 * 2 KiB / 8 MiB / 512 MiB / 32 GiB / 64 GiB, each in under 60 MB of memory; PoSt under
 * 0.7 s (1, 2 and 3 sectors counted, every count affine in the sector count, extended to
 * the partition's sectors).
 *
 * Recount after any change to a gadget or circuit that changes what is recorded (and bump
 * FIL_CIRCUIT_REV in kind_fil_cache.c); test_fil_plan fails until the rows agree.
 * Threading: a constant table.
 */
#include <stddef.h>

#include "cuzk/plan.h"

#define P CUZK_PROOF_POREP_SEAL_COMMIT
#define W CUZK_PROOF_WINDOW_POST_PARTITION
#define N CUZK_PROOF_WINNING_POST
#define S CUZK_PROOF_SNAP_DEALS_UPDATE
#define K2 2048ull
#define M8 (8ull << 20)
#define M512 (512ull << 20)
#define G32 (32ull << 30)
#define G64 (64ull << 30)

/* kind, sector size, constraints (input rows excluded), inputs (ONE included), aux,
 * nnz A/B/C, A aux, B inputs, B aux, bits, distinct coefficients, log2 domain */
static const cuzk_fil_counts k_counts[] = {
    {P, K2, 2687921, 40, 2685673, {6420965, 2689006, 5824682},
     2674908, 1, 685521, 2641867, 1526, 22},
    {P, M8, 3844929, 40, 3842449, {9388413, 3847886, 8234882},
     3814996, 1, 1011289, 3730451, 1526, 22},
    {P, M512, 4423433, 40, 4420837, {10872137, 4427326, 9439982},
     4385040, 1, 1174173, 4274743, 1526, 23},
    {P, G32, 130278541, 328, 130169893, {309404723, 130327340, 282656500},
     129753292, 1, 33112281, 128470791, 2466, 27},
    {P, G64, 131185849, 328, 131076643, {311892197, 131235764, 284512534},
     130637542, 1, 33386943, 129287037, 2466, 27},
    {W, K2, 21866, 23, 22128, {150262, 22230, 27456},
     16770, 1, 16028, 200, 961, 15},
    {W, M8, 64266, 23, 65088, {442262, 65350, 80736},
     49330, 1, 47148, 600, 973, 16},
    {W, M512, 85466, 23, 86568, {588262, 86910, 107376},
     65610, 1, 62708, 800, 979, 17},
    {W, G32, 125279217, 25840, 126902376, {862390719, 127398015, 157401792},
     96179805, 1, 91925766, 1174500, 985, 27},
    {W, G64, 129887900, 25301, 131500200, {893299300, 132008500, 163088400},
     99624500, 1, 95413200, 1173000, 986, 27},
    {N, K2, 90750, 133, 91674, {621852, 92070, 113652},
     69300, 1, 66792, 660, 961, 17},
    {N, M8, 230670, 133, 233442, {1585452, 234366, 289476},
     176748, 1, 169488, 1980, 973, 18},
    {N, M512, 300630, 133, 304326, {2067252, 305514, 377388},
     230472, 1, 220836, 2640, 979, 19},
    {N, G32, 370590, 133, 375210, {2549052, 376662, 465300},
     284196, 1, 272184, 3300, 985, 19},
    {N, G64, 391314, 133, 396000, {2689368, 397518, 491040},
     299838, 1, 287694, 3366, 986, 19},
    {S, K2, 1705039, 5, 1703569, {4030887, 1706537, 3616648},
     1697189, 1, 444403, 1677551, 1516, 21},
    {S, M8, 10007503, 5, 9998039, {23284273, 10015181, 21302734},
     9981015, 1, 2567921, 9927773, 1516, 24},
    {S, M512, 57450479, 5, 57401314, {135362847, 57500527, 121971144},
     57212317, 1, 14916879, 56621972, 1520, 26},
    {S, G32, 81049499, 5, 80978488, {190374907, 81118127, 172187492},
     80743581, 1, 20983607, 80013450, 1522, 27},
    {S, G64, 85006101, 5, 84931220, {199699027, 85077653, 180585650},
     84682725, 1, 22012683, 83911830, 1522, 27},
};

const cuzk_fil_counts *cuzk_fil_counts_get(cuzk_proof_kind kind, uint64_t sector_size)
{
    for (size_t i = 0; i < sizeof k_counts / sizeof k_counts[0]; i++)
        if (k_counts[i].kind == kind && k_counts[i].sector_size == sector_size)
            return &k_counts[i];
    return NULL;
}

const cuzk_fil_counts *cuzk_fil_counts_table(unsigned *n)
{
    if (n)
        *n = (unsigned)(sizeof k_counts / sizeof k_counts[0]);
    return k_counts;
}
