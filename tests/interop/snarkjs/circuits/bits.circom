pragma circom 2.0.0;

// Bit decomposition: x (public) is split into N bits, each constrained to be 0 or 1, and
// recomposed; the output is the number of set bits. Most witness values are 0/1, which is
// the shape the prover's 0/1 split is for.
template Bits(N) {
    signal input x;
    signal output popcount;
    signal b[N];
    var lc = 0;
    var cnt = 0;
    var e = 1;
    for (var i = 0; i < N; i++) {
        b[i] <-- (x >> i) & 1;
        b[i] * (b[i] - 1) === 0;
        lc += b[i] * e;
        cnt += b[i];
        e = e + e;
    }
    lc === x;
    popcount <== cnt;
}

component main {public [x]} = Bits(200);
