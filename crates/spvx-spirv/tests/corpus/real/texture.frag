#version 450
// A fragment shader with a combined image sampler, a uniform block and discard.
layout(location = 0) in vec2 uv;
layout(location = 1) in vec4 tint;
layout(location = 0) out vec4 color;
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(set = 0, binding = 1) uniform U { mat4 m; float cutoff; } u;

void main() {
    vec4 t = texture(tex, uv) * tint;
    if (t.a < u.cutoff) {
        discard;
    }
    color = u.m * vec4(pow(t.rgb, vec3(2.2)), t.a);
}
