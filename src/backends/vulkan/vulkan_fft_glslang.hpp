// VkFFT 1.2.x's calls into glslang's C interface, made to fit glslang 12 and later.
//
// VkFFT initialises a glslang_resource_t field by field in order, as glslang had it before 12;
// glslang 12 inserted the EXT mesh-shader limits before max_dual_source_draw_buffers_ext. C lets
// that initializer run on into the wrong fields; C++ rejects it. So, within vkFFT.h only, the
// resource and input types are the layout VkFFT writes, and the three calls that take them
// convert to glslang's own (the mesh limits zero: compute shaders never read them).
//
// Included by vulkan_fft.cpp alone, inside its unnamed namespace, right before vkFFT.h, after
// <cstring> and glslang's headers at global scope.
#pragma once

#if GLSLANG_VERSION_MAJOR >= 12

struct VkfftGlslangResource {
  // glslang_resource_t's fields up to max_mesh_view_count_nv, all int.
  int before_ext_mesh_limits[offsetof(glslang_resource_t, max_mesh_output_vertices_ext) /
                             sizeof(int)];
  int max_dual_source_draw_buffers_ext;
  glslang_limits_t limits;
};

struct VkfftGlslangInput {
  glslang_source_t language;
  glslang_stage_t stage;
  glslang_client_t client;
  glslang_target_client_version_t client_version;
  glslang_target_language_t target_language;
  glslang_target_language_version_t target_language_version;
  const char* code;
  int default_version;
  glslang_profile_t default_profile;
  int force_default_version_and_profile;
  int forward_compatible;
  glslang_messages_t messages;
  const VkfftGlslangResource* resource;
};

// glslang's input for `in`, kept per thread from one call to the next: a shader keeps a pointer
// to its input's code pointer from creation until it is parsed.
const glslang_input_t* glslang_input_for(const VkfftGlslangInput* in) {
  thread_local glslang_resource_t resource;
  thread_local glslang_input_t input;
  resource = {};
  std::memcpy(&resource, in->resource->before_ext_mesh_limits,
              sizeof in->resource->before_ext_mesh_limits);
  resource.max_dual_source_draw_buffers_ext = in->resource->max_dual_source_draw_buffers_ext;
  resource.limits = in->resource->limits;
  input = {in->language,
           in->stage,
           in->client,
           in->client_version,
           in->target_language,
           in->target_language_version,
           in->code,
           in->default_version,
           in->default_profile,
           in->force_default_version_and_profile,
           in->forward_compatible,
           in->messages,
           &resource};
  return &input;
}

glslang_shader_t* vkfft_shader_create(const VkfftGlslangInput* in) {
  return glslang_shader_create(glslang_input_for(in));
}
int vkfft_shader_preprocess(glslang_shader_t* shader, const VkfftGlslangInput* in) {
  return glslang_shader_preprocess(shader, glslang_input_for(in));
}
int vkfft_shader_parse(glslang_shader_t* shader, const VkfftGlslangInput* in) {
  return glslang_shader_parse(shader, glslang_input_for(in));
}

#define glslang_resource_t VkfftGlslangResource
#define glslang_input_t VkfftGlslangInput
#define glslang_shader_create vkfft_shader_create
#define glslang_shader_preprocess vkfft_shader_preprocess
#define glslang_shader_parse vkfft_shader_parse

#endif
