pragma circom 2.0.0;

// The size test: N multiplication-chain links (about N constraints), one public input, one
// output. N is set by the driver (sed) so the domain stays within the cached ptau.
template Big(N) {
    signal input a;
    signal input b;
    signal output c;
    signal t[N];
    t[0] <== a * b;
    for (var i = 1; i < N; i++) {
        t[i] <== t[i-1] * (a + i) + b;
    }
    c <== t[N-1];
}

component main {public [b]} = Big(BIG_N);
