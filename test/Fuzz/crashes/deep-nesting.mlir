func.func @deep(%arg0: tensor<2xf32>) -> tensor<2xf32> {
%r0 = fuser.segment pointwise (%arg0) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a1: tensor<2xf32>):
%r1 = fuser.segment pointwise (%a1) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a2: tensor<2xf32>):
%r2 = fuser.segment pointwise (%a2) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a3: tensor<2xf32>):
%r3 = fuser.segment pointwise (%a3) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a4: tensor<2xf32>):
%r4 = fuser.segment pointwise (%a4) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a5: tensor<2xf32>):
%r5 = fuser.segment pointwise (%a5) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a6: tensor<2xf32>):
%r6 = fuser.segment pointwise (%a6) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a7: tensor<2xf32>):
%r7 = fuser.segment pointwise (%a7) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a8: tensor<2xf32>):
%r8 = fuser.segment pointwise (%a8) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a9: tensor<2xf32>):
%r9 = fuser.segment pointwise (%a9) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a10: tensor<2xf32>):
%r10 = fuser.segment pointwise (%a10) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a11: tensor<2xf32>):
%r11 = fuser.segment pointwise (%a11) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a12: tensor<2xf32>):
%r12 = fuser.segment pointwise (%a12) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a13: tensor<2xf32>):
%r13 = fuser.segment pointwise (%a13) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a14: tensor<2xf32>):
%r14 = fuser.segment pointwise (%a14) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a15: tensor<2xf32>):
%r15 = fuser.segment pointwise (%a15) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a16: tensor<2xf32>):
%r16 = fuser.segment pointwise (%a16) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a17: tensor<2xf32>):
%r17 = fuser.segment pointwise (%a17) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a18: tensor<2xf32>):
%r18 = fuser.segment pointwise (%a18) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a19: tensor<2xf32>):
%r19 = fuser.segment pointwise (%a19) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a20: tensor<2xf32>):
%r20 = fuser.segment pointwise (%a20) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a21: tensor<2xf32>):
%r21 = fuser.segment pointwise (%a21) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a22: tensor<2xf32>):
%r22 = fuser.segment pointwise (%a22) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a23: tensor<2xf32>):
%r23 = fuser.segment pointwise (%a23) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a24: tensor<2xf32>):
%r24 = fuser.segment pointwise (%a24) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a25: tensor<2xf32>):
%r25 = fuser.segment pointwise (%a25) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a26: tensor<2xf32>):
%r26 = fuser.segment pointwise (%a26) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a27: tensor<2xf32>):
%r27 = fuser.segment pointwise (%a27) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a28: tensor<2xf32>):
%r28 = fuser.segment pointwise (%a28) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a29: tensor<2xf32>):
%r29 = fuser.segment pointwise (%a29) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a30: tensor<2xf32>):
%r30 = fuser.segment pointwise (%a30) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a31: tensor<2xf32>):
%r31 = fuser.segment pointwise (%a31) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a32: tensor<2xf32>):
%r32 = fuser.segment pointwise (%a32) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a33: tensor<2xf32>):
%r33 = fuser.segment pointwise (%a33) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a34: tensor<2xf32>):
%r34 = fuser.segment pointwise (%a34) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a35: tensor<2xf32>):
%r35 = fuser.segment pointwise (%a35) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a36: tensor<2xf32>):
%r36 = fuser.segment pointwise (%a36) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a37: tensor<2xf32>):
%r37 = fuser.segment pointwise (%a37) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a38: tensor<2xf32>):
%r38 = fuser.segment pointwise (%a38) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a39: tensor<2xf32>):
%r39 = fuser.segment pointwise (%a39) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a40: tensor<2xf32>):
%r40 = fuser.segment pointwise (%a40) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a41: tensor<2xf32>):
%r41 = fuser.segment pointwise (%a41) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a42: tensor<2xf32>):
%r42 = fuser.segment pointwise (%a42) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a43: tensor<2xf32>):
%r43 = fuser.segment pointwise (%a43) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a44: tensor<2xf32>):
%r44 = fuser.segment pointwise (%a44) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a45: tensor<2xf32>):
%r45 = fuser.segment pointwise (%a45) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a46: tensor<2xf32>):
%r46 = fuser.segment pointwise (%a46) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a47: tensor<2xf32>):
%r47 = fuser.segment pointwise (%a47) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a48: tensor<2xf32>):
%r48 = fuser.segment pointwise (%a48) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a49: tensor<2xf32>):
%r49 = fuser.segment pointwise (%a49) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a50: tensor<2xf32>):
%r50 = fuser.segment pointwise (%a50) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a51: tensor<2xf32>):
%r51 = fuser.segment pointwise (%a51) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a52: tensor<2xf32>):
%r52 = fuser.segment pointwise (%a52) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a53: tensor<2xf32>):
%r53 = fuser.segment pointwise (%a53) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a54: tensor<2xf32>):
%r54 = fuser.segment pointwise (%a54) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a55: tensor<2xf32>):
%r55 = fuser.segment pointwise (%a55) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a56: tensor<2xf32>):
%r56 = fuser.segment pointwise (%a56) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a57: tensor<2xf32>):
%r57 = fuser.segment pointwise (%a57) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a58: tensor<2xf32>):
%r58 = fuser.segment pointwise (%a58) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a59: tensor<2xf32>):
%r59 = fuser.segment pointwise (%a59) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a60: tensor<2xf32>):
%r60 = fuser.segment pointwise (%a60) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a61: tensor<2xf32>):
%r61 = fuser.segment pointwise (%a61) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a62: tensor<2xf32>):
%r62 = fuser.segment pointwise (%a62) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a63: tensor<2xf32>):
%r63 = fuser.segment pointwise (%a63) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a64: tensor<2xf32>):
%r64 = fuser.segment pointwise (%a64) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a65: tensor<2xf32>):
%r65 = fuser.segment pointwise (%a65) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a66: tensor<2xf32>):
%r66 = fuser.segment pointwise (%a66) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a67: tensor<2xf32>):
%r67 = fuser.segment pointwise (%a67) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a68: tensor<2xf32>):
%r68 = fuser.segment pointwise (%a68) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a69: tensor<2xf32>):
%r69 = fuser.segment pointwise (%a69) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a70: tensor<2xf32>):
%r70 = fuser.segment pointwise (%a70) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a71: tensor<2xf32>):
%r71 = fuser.segment pointwise (%a71) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a72: tensor<2xf32>):
%r72 = fuser.segment pointwise (%a72) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a73: tensor<2xf32>):
%r73 = fuser.segment pointwise (%a73) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a74: tensor<2xf32>):
%r74 = fuser.segment pointwise (%a74) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a75: tensor<2xf32>):
%r75 = fuser.segment pointwise (%a75) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a76: tensor<2xf32>):
%r76 = fuser.segment pointwise (%a76) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a77: tensor<2xf32>):
%r77 = fuser.segment pointwise (%a77) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a78: tensor<2xf32>):
%r78 = fuser.segment pointwise (%a78) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a79: tensor<2xf32>):
%r79 = fuser.segment pointwise (%a79) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a80: tensor<2xf32>):
%r80 = fuser.segment pointwise (%a80) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a81: tensor<2xf32>):
%r81 = fuser.segment pointwise (%a81) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a82: tensor<2xf32>):
%r82 = fuser.segment pointwise (%a82) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a83: tensor<2xf32>):
%r83 = fuser.segment pointwise (%a83) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a84: tensor<2xf32>):
%r84 = fuser.segment pointwise (%a84) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a85: tensor<2xf32>):
%r85 = fuser.segment pointwise (%a85) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a86: tensor<2xf32>):
%r86 = fuser.segment pointwise (%a86) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a87: tensor<2xf32>):
%r87 = fuser.segment pointwise (%a87) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a88: tensor<2xf32>):
%r88 = fuser.segment pointwise (%a88) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a89: tensor<2xf32>):
%r89 = fuser.segment pointwise (%a89) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a90: tensor<2xf32>):
%r90 = fuser.segment pointwise (%a90) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a91: tensor<2xf32>):
%r91 = fuser.segment pointwise (%a91) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a92: tensor<2xf32>):
%r92 = fuser.segment pointwise (%a92) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a93: tensor<2xf32>):
%r93 = fuser.segment pointwise (%a93) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a94: tensor<2xf32>):
%r94 = fuser.segment pointwise (%a94) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a95: tensor<2xf32>):
%r95 = fuser.segment pointwise (%a95) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a96: tensor<2xf32>):
%r96 = fuser.segment pointwise (%a96) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a97: tensor<2xf32>):
%r97 = fuser.segment pointwise (%a97) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a98: tensor<2xf32>):
%r98 = fuser.segment pointwise (%a98) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a99: tensor<2xf32>):
%r99 = fuser.segment pointwise (%a99) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a100: tensor<2xf32>):
%r100 = fuser.segment pointwise (%a100) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a101: tensor<2xf32>):
%r101 = fuser.segment pointwise (%a101) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a102: tensor<2xf32>):
%r102 = fuser.segment pointwise (%a102) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a103: tensor<2xf32>):
%r103 = fuser.segment pointwise (%a103) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a104: tensor<2xf32>):
%r104 = fuser.segment pointwise (%a104) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a105: tensor<2xf32>):
%r105 = fuser.segment pointwise (%a105) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a106: tensor<2xf32>):
%r106 = fuser.segment pointwise (%a106) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a107: tensor<2xf32>):
%r107 = fuser.segment pointwise (%a107) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a108: tensor<2xf32>):
%r108 = fuser.segment pointwise (%a108) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a109: tensor<2xf32>):
%r109 = fuser.segment pointwise (%a109) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a110: tensor<2xf32>):
%r110 = fuser.segment pointwise (%a110) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a111: tensor<2xf32>):
%r111 = fuser.segment pointwise (%a111) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a112: tensor<2xf32>):
%r112 = fuser.segment pointwise (%a112) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a113: tensor<2xf32>):
%r113 = fuser.segment pointwise (%a113) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a114: tensor<2xf32>):
%r114 = fuser.segment pointwise (%a114) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a115: tensor<2xf32>):
%r115 = fuser.segment pointwise (%a115) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a116: tensor<2xf32>):
%r116 = fuser.segment pointwise (%a116) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a117: tensor<2xf32>):
%r117 = fuser.segment pointwise (%a117) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a118: tensor<2xf32>):
%r118 = fuser.segment pointwise (%a118) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a119: tensor<2xf32>):
%r119 = fuser.segment pointwise (%a119) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a120: tensor<2xf32>):
%r120 = fuser.segment pointwise (%a120) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a121: tensor<2xf32>):
%r121 = fuser.segment pointwise (%a121) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a122: tensor<2xf32>):
%r122 = fuser.segment pointwise (%a122) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a123: tensor<2xf32>):
%r123 = fuser.segment pointwise (%a123) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a124: tensor<2xf32>):
%r124 = fuser.segment pointwise (%a124) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a125: tensor<2xf32>):
%r125 = fuser.segment pointwise (%a125) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a126: tensor<2xf32>):
%r126 = fuser.segment pointwise (%a126) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a127: tensor<2xf32>):
%r127 = fuser.segment pointwise (%a127) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a128: tensor<2xf32>):
%r128 = fuser.segment pointwise (%a128) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a129: tensor<2xf32>):
%r129 = fuser.segment pointwise (%a129) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a130: tensor<2xf32>):
%r130 = fuser.segment pointwise (%a130) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a131: tensor<2xf32>):
%r131 = fuser.segment pointwise (%a131) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a132: tensor<2xf32>):
%r132 = fuser.segment pointwise (%a132) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a133: tensor<2xf32>):
%r133 = fuser.segment pointwise (%a133) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a134: tensor<2xf32>):
%r134 = fuser.segment pointwise (%a134) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a135: tensor<2xf32>):
%r135 = fuser.segment pointwise (%a135) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a136: tensor<2xf32>):
%r136 = fuser.segment pointwise (%a136) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a137: tensor<2xf32>):
%r137 = fuser.segment pointwise (%a137) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a138: tensor<2xf32>):
%r138 = fuser.segment pointwise (%a138) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a139: tensor<2xf32>):
%r139 = fuser.segment pointwise (%a139) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a140: tensor<2xf32>):
%r140 = fuser.segment pointwise (%a140) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a141: tensor<2xf32>):
%r141 = fuser.segment pointwise (%a141) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a142: tensor<2xf32>):
%r142 = fuser.segment pointwise (%a142) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a143: tensor<2xf32>):
%r143 = fuser.segment pointwise (%a143) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a144: tensor<2xf32>):
%r144 = fuser.segment pointwise (%a144) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a145: tensor<2xf32>):
%r145 = fuser.segment pointwise (%a145) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a146: tensor<2xf32>):
%r146 = fuser.segment pointwise (%a146) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a147: tensor<2xf32>):
%r147 = fuser.segment pointwise (%a147) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a148: tensor<2xf32>):
%r148 = fuser.segment pointwise (%a148) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a149: tensor<2xf32>):
%r149 = fuser.segment pointwise (%a149) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a150: tensor<2xf32>):
%r150 = fuser.segment pointwise (%a150) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a151: tensor<2xf32>):
%r151 = fuser.segment pointwise (%a151) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a152: tensor<2xf32>):
%r152 = fuser.segment pointwise (%a152) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a153: tensor<2xf32>):
%r153 = fuser.segment pointwise (%a153) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a154: tensor<2xf32>):
%r154 = fuser.segment pointwise (%a154) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a155: tensor<2xf32>):
%r155 = fuser.segment pointwise (%a155) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a156: tensor<2xf32>):
%r156 = fuser.segment pointwise (%a156) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a157: tensor<2xf32>):
%r157 = fuser.segment pointwise (%a157) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a158: tensor<2xf32>):
%r158 = fuser.segment pointwise (%a158) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a159: tensor<2xf32>):
%r159 = fuser.segment pointwise (%a159) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a160: tensor<2xf32>):
%r160 = fuser.segment pointwise (%a160) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a161: tensor<2xf32>):
%r161 = fuser.segment pointwise (%a161) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a162: tensor<2xf32>):
%r162 = fuser.segment pointwise (%a162) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a163: tensor<2xf32>):
%r163 = fuser.segment pointwise (%a163) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a164: tensor<2xf32>):
%r164 = fuser.segment pointwise (%a164) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a165: tensor<2xf32>):
%r165 = fuser.segment pointwise (%a165) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a166: tensor<2xf32>):
%r166 = fuser.segment pointwise (%a166) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a167: tensor<2xf32>):
%r167 = fuser.segment pointwise (%a167) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a168: tensor<2xf32>):
%r168 = fuser.segment pointwise (%a168) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a169: tensor<2xf32>):
%r169 = fuser.segment pointwise (%a169) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a170: tensor<2xf32>):
%r170 = fuser.segment pointwise (%a170) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a171: tensor<2xf32>):
%r171 = fuser.segment pointwise (%a171) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a172: tensor<2xf32>):
%r172 = fuser.segment pointwise (%a172) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a173: tensor<2xf32>):
%r173 = fuser.segment pointwise (%a173) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a174: tensor<2xf32>):
%r174 = fuser.segment pointwise (%a174) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a175: tensor<2xf32>):
%r175 = fuser.segment pointwise (%a175) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a176: tensor<2xf32>):
%r176 = fuser.segment pointwise (%a176) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a177: tensor<2xf32>):
%r177 = fuser.segment pointwise (%a177) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a178: tensor<2xf32>):
%r178 = fuser.segment pointwise (%a178) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a179: tensor<2xf32>):
%r179 = fuser.segment pointwise (%a179) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a180: tensor<2xf32>):
%r180 = fuser.segment pointwise (%a180) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a181: tensor<2xf32>):
%r181 = fuser.segment pointwise (%a181) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a182: tensor<2xf32>):
%r182 = fuser.segment pointwise (%a182) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a183: tensor<2xf32>):
%r183 = fuser.segment pointwise (%a183) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a184: tensor<2xf32>):
%r184 = fuser.segment pointwise (%a184) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a185: tensor<2xf32>):
%r185 = fuser.segment pointwise (%a185) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a186: tensor<2xf32>):
%r186 = fuser.segment pointwise (%a186) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a187: tensor<2xf32>):
%r187 = fuser.segment pointwise (%a187) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a188: tensor<2xf32>):
%r188 = fuser.segment pointwise (%a188) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a189: tensor<2xf32>):
%r189 = fuser.segment pointwise (%a189) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a190: tensor<2xf32>):
%r190 = fuser.segment pointwise (%a190) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a191: tensor<2xf32>):
%r191 = fuser.segment pointwise (%a191) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a192: tensor<2xf32>):
%r192 = fuser.segment pointwise (%a192) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a193: tensor<2xf32>):
%r193 = fuser.segment pointwise (%a193) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a194: tensor<2xf32>):
%r194 = fuser.segment pointwise (%a194) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a195: tensor<2xf32>):
%r195 = fuser.segment pointwise (%a195) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a196: tensor<2xf32>):
%r196 = fuser.segment pointwise (%a196) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a197: tensor<2xf32>):
%r197 = fuser.segment pointwise (%a197) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a198: tensor<2xf32>):
%r198 = fuser.segment pointwise (%a198) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%a199: tensor<2xf32>):
%r199 = fuser.segment pointwise (%a199) : (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%x: tensor<2xf32>):
fuser.yield %x : tensor<2xf32>
}
fuser.yield %r199 : tensor<2xf32>
}
fuser.yield %r198 : tensor<2xf32>
}
fuser.yield %r197 : tensor<2xf32>
}
fuser.yield %r196 : tensor<2xf32>
}
fuser.yield %r195 : tensor<2xf32>
}
fuser.yield %r194 : tensor<2xf32>
}
fuser.yield %r193 : tensor<2xf32>
}
fuser.yield %r192 : tensor<2xf32>
}
fuser.yield %r191 : tensor<2xf32>
}
fuser.yield %r190 : tensor<2xf32>
}
fuser.yield %r189 : tensor<2xf32>
}
fuser.yield %r188 : tensor<2xf32>
}
fuser.yield %r187 : tensor<2xf32>
}
fuser.yield %r186 : tensor<2xf32>
}
fuser.yield %r185 : tensor<2xf32>
}
fuser.yield %r184 : tensor<2xf32>
}
fuser.yield %r183 : tensor<2xf32>
}
fuser.yield %r182 : tensor<2xf32>
}
fuser.yield %r181 : tensor<2xf32>
}
fuser.yield %r180 : tensor<2xf32>
}
fuser.yield %r179 : tensor<2xf32>
}
fuser.yield %r178 : tensor<2xf32>
}
fuser.yield %r177 : tensor<2xf32>
}
fuser.yield %r176 : tensor<2xf32>
}
fuser.yield %r175 : tensor<2xf32>
}
fuser.yield %r174 : tensor<2xf32>
}
fuser.yield %r173 : tensor<2xf32>
}
fuser.yield %r172 : tensor<2xf32>
}
fuser.yield %r171 : tensor<2xf32>
}
fuser.yield %r170 : tensor<2xf32>
}
fuser.yield %r169 : tensor<2xf32>
}
fuser.yield %r168 : tensor<2xf32>
}
fuser.yield %r167 : tensor<2xf32>
}
fuser.yield %r166 : tensor<2xf32>
}
fuser.yield %r165 : tensor<2xf32>
}
fuser.yield %r164 : tensor<2xf32>
}
fuser.yield %r163 : tensor<2xf32>
}
fuser.yield %r162 : tensor<2xf32>
}
fuser.yield %r161 : tensor<2xf32>
}
fuser.yield %r160 : tensor<2xf32>
}
fuser.yield %r159 : tensor<2xf32>
}
fuser.yield %r158 : tensor<2xf32>
}
fuser.yield %r157 : tensor<2xf32>
}
fuser.yield %r156 : tensor<2xf32>
}
fuser.yield %r155 : tensor<2xf32>
}
fuser.yield %r154 : tensor<2xf32>
}
fuser.yield %r153 : tensor<2xf32>
}
fuser.yield %r152 : tensor<2xf32>
}
fuser.yield %r151 : tensor<2xf32>
}
fuser.yield %r150 : tensor<2xf32>
}
fuser.yield %r149 : tensor<2xf32>
}
fuser.yield %r148 : tensor<2xf32>
}
fuser.yield %r147 : tensor<2xf32>
}
fuser.yield %r146 : tensor<2xf32>
}
fuser.yield %r145 : tensor<2xf32>
}
fuser.yield %r144 : tensor<2xf32>
}
fuser.yield %r143 : tensor<2xf32>
}
fuser.yield %r142 : tensor<2xf32>
}
fuser.yield %r141 : tensor<2xf32>
}
fuser.yield %r140 : tensor<2xf32>
}
fuser.yield %r139 : tensor<2xf32>
}
fuser.yield %r138 : tensor<2xf32>
}
fuser.yield %r137 : tensor<2xf32>
}
fuser.yield %r136 : tensor<2xf32>
}
fuser.yield %r135 : tensor<2xf32>
}
fuser.yield %r134 : tensor<2xf32>
}
fuser.yield %r133 : tensor<2xf32>
}
fuser.yield %r132 : tensor<2xf32>
}
fuser.yield %r131 : tensor<2xf32>
}
fuser.yield %r130 : tensor<2xf32>
}
fuser.yield %r129 : tensor<2xf32>
}
fuser.yield %r128 : tensor<2xf32>
}
fuser.yield %r127 : tensor<2xf32>
}
fuser.yield %r126 : tensor<2xf32>
}
fuser.yield %r125 : tensor<2xf32>
}
fuser.yield %r124 : tensor<2xf32>
}
fuser.yield %r123 : tensor<2xf32>
}
fuser.yield %r122 : tensor<2xf32>
}
fuser.yield %r121 : tensor<2xf32>
}
fuser.yield %r120 : tensor<2xf32>
}
fuser.yield %r119 : tensor<2xf32>
}
fuser.yield %r118 : tensor<2xf32>
}
fuser.yield %r117 : tensor<2xf32>
}
fuser.yield %r116 : tensor<2xf32>
}
fuser.yield %r115 : tensor<2xf32>
}
fuser.yield %r114 : tensor<2xf32>
}
fuser.yield %r113 : tensor<2xf32>
}
fuser.yield %r112 : tensor<2xf32>
}
fuser.yield %r111 : tensor<2xf32>
}
fuser.yield %r110 : tensor<2xf32>
}
fuser.yield %r109 : tensor<2xf32>
}
fuser.yield %r108 : tensor<2xf32>
}
fuser.yield %r107 : tensor<2xf32>
}
fuser.yield %r106 : tensor<2xf32>
}
fuser.yield %r105 : tensor<2xf32>
}
fuser.yield %r104 : tensor<2xf32>
}
fuser.yield %r103 : tensor<2xf32>
}
fuser.yield %r102 : tensor<2xf32>
}
fuser.yield %r101 : tensor<2xf32>
}
fuser.yield %r100 : tensor<2xf32>
}
fuser.yield %r99 : tensor<2xf32>
}
fuser.yield %r98 : tensor<2xf32>
}
fuser.yield %r97 : tensor<2xf32>
}
fuser.yield %r96 : tensor<2xf32>
}
fuser.yield %r95 : tensor<2xf32>
}
fuser.yield %r94 : tensor<2xf32>
}
fuser.yield %r93 : tensor<2xf32>
}
fuser.yield %r92 : tensor<2xf32>
}
fuser.yield %r91 : tensor<2xf32>
}
fuser.yield %r90 : tensor<2xf32>
}
fuser.yield %r89 : tensor<2xf32>
}
fuser.yield %r88 : tensor<2xf32>
}
fuser.yield %r87 : tensor<2xf32>
}
fuser.yield %r86 : tensor<2xf32>
}
fuser.yield %r85 : tensor<2xf32>
}
fuser.yield %r84 : tensor<2xf32>
}
fuser.yield %r83 : tensor<2xf32>
}
fuser.yield %r82 : tensor<2xf32>
}
fuser.yield %r81 : tensor<2xf32>
}
fuser.yield %r80 : tensor<2xf32>
}
fuser.yield %r79 : tensor<2xf32>
}
fuser.yield %r78 : tensor<2xf32>
}
fuser.yield %r77 : tensor<2xf32>
}
fuser.yield %r76 : tensor<2xf32>
}
fuser.yield %r75 : tensor<2xf32>
}
fuser.yield %r74 : tensor<2xf32>
}
fuser.yield %r73 : tensor<2xf32>
}
fuser.yield %r72 : tensor<2xf32>
}
fuser.yield %r71 : tensor<2xf32>
}
fuser.yield %r70 : tensor<2xf32>
}
fuser.yield %r69 : tensor<2xf32>
}
fuser.yield %r68 : tensor<2xf32>
}
fuser.yield %r67 : tensor<2xf32>
}
fuser.yield %r66 : tensor<2xf32>
}
fuser.yield %r65 : tensor<2xf32>
}
fuser.yield %r64 : tensor<2xf32>
}
fuser.yield %r63 : tensor<2xf32>
}
fuser.yield %r62 : tensor<2xf32>
}
fuser.yield %r61 : tensor<2xf32>
}
fuser.yield %r60 : tensor<2xf32>
}
fuser.yield %r59 : tensor<2xf32>
}
fuser.yield %r58 : tensor<2xf32>
}
fuser.yield %r57 : tensor<2xf32>
}
fuser.yield %r56 : tensor<2xf32>
}
fuser.yield %r55 : tensor<2xf32>
}
fuser.yield %r54 : tensor<2xf32>
}
fuser.yield %r53 : tensor<2xf32>
}
fuser.yield %r52 : tensor<2xf32>
}
fuser.yield %r51 : tensor<2xf32>
}
fuser.yield %r50 : tensor<2xf32>
}
fuser.yield %r49 : tensor<2xf32>
}
fuser.yield %r48 : tensor<2xf32>
}
fuser.yield %r47 : tensor<2xf32>
}
fuser.yield %r46 : tensor<2xf32>
}
fuser.yield %r45 : tensor<2xf32>
}
fuser.yield %r44 : tensor<2xf32>
}
fuser.yield %r43 : tensor<2xf32>
}
fuser.yield %r42 : tensor<2xf32>
}
fuser.yield %r41 : tensor<2xf32>
}
fuser.yield %r40 : tensor<2xf32>
}
fuser.yield %r39 : tensor<2xf32>
}
fuser.yield %r38 : tensor<2xf32>
}
fuser.yield %r37 : tensor<2xf32>
}
fuser.yield %r36 : tensor<2xf32>
}
fuser.yield %r35 : tensor<2xf32>
}
fuser.yield %r34 : tensor<2xf32>
}
fuser.yield %r33 : tensor<2xf32>
}
fuser.yield %r32 : tensor<2xf32>
}
fuser.yield %r31 : tensor<2xf32>
}
fuser.yield %r30 : tensor<2xf32>
}
fuser.yield %r29 : tensor<2xf32>
}
fuser.yield %r28 : tensor<2xf32>
}
fuser.yield %r27 : tensor<2xf32>
}
fuser.yield %r26 : tensor<2xf32>
}
fuser.yield %r25 : tensor<2xf32>
}
fuser.yield %r24 : tensor<2xf32>
}
fuser.yield %r23 : tensor<2xf32>
}
fuser.yield %r22 : tensor<2xf32>
}
fuser.yield %r21 : tensor<2xf32>
}
fuser.yield %r20 : tensor<2xf32>
}
fuser.yield %r19 : tensor<2xf32>
}
fuser.yield %r18 : tensor<2xf32>
}
fuser.yield %r17 : tensor<2xf32>
}
fuser.yield %r16 : tensor<2xf32>
}
fuser.yield %r15 : tensor<2xf32>
}
fuser.yield %r14 : tensor<2xf32>
}
fuser.yield %r13 : tensor<2xf32>
}
fuser.yield %r12 : tensor<2xf32>
}
fuser.yield %r11 : tensor<2xf32>
}
fuser.yield %r10 : tensor<2xf32>
}
fuser.yield %r9 : tensor<2xf32>
}
fuser.yield %r8 : tensor<2xf32>
}
fuser.yield %r7 : tensor<2xf32>
}
fuser.yield %r6 : tensor<2xf32>
}
fuser.yield %r5 : tensor<2xf32>
}
fuser.yield %r4 : tensor<2xf32>
}
fuser.yield %r3 : tensor<2xf32>
}
fuser.yield %r2 : tensor<2xf32>
}
fuser.yield %r1 : tensor<2xf32>
}
return %r0 : tensor<2xf32>
}
