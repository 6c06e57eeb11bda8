pragma circom 2.0.0;

// Several public inputs and outputs, a private input, and products mixing them, so the
// public-input binding rows and IC points for more than one input are exercised.
template MultiIO(K) {
    signal input pub[K];
    signal input secret;
    signal output sum;
    signal output prod;
    signal output sq;
    signal acc[K + 1];
    signal p[K + 1];
    acc[0] <== secret;
    p[0] <== secret + 1;
    for (var i = 0; i < K; i++) {
        acc[i + 1] <== acc[i] + pub[i] * secret;
        p[i + 1] <== p[i] * (pub[i] + 3);
    }
    sum <== acc[K];
    prod <== p[K];
    sq <== secret * secret;
}

component main {public [pub]} = MultiIO(5);
