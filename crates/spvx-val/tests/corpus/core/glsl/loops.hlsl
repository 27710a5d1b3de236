// HLSL through glslang: a different front end's control flow (loops with break, nested
// conditions, a switch) and a structured buffer.
RWStructuredBuffer<int> data : register(u0);

int step(int x) {
    [branch] switch (x % 3) {
        case 0: return x / 2;
        case 1: return x * 3 + 1;
        default: break;
    }
    return x - 1;
}

[numthreads(16, 1, 1)]
void main(uint3 id : SV_DispatchThreadID) {
    int x = data[id.x];
    [loop] for (int k = 0; k < 32; k++) {
        if (x <= 1) break;
        x = step(x);
        if ((x & 1) == 0 && k > 20) continue;
    }
    data[id.x] = x;
}
