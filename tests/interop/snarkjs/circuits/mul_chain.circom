pragma circom 2.0.0;

// A multiplication chain: t[0] = a*b, t[i] = t[i-1]*a + b; one public input (b), one output.
template MulChain(N) {
    signal input a;
    signal input b;
    signal output c;
    signal t[N];
    t[0] <== a * b;
    for (var i = 1; i < N; i++) {
        t[i] <== t[i-1] * a + b;
    }
    c <== t[N-1];
}

component main {public [b]} = MulChain(8);
